/**
 * Reading SQL files as text: statements one by one (PGlite's extended protocol runs one at a time)
 * and the server-side functions a statement defines.
 */

/**
 * Splits a file into statements. Respects quotes, dollar-quoted bodies and comments; `--` comments
 * outside them are left out.
 */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let current = '';
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const dollar = /^\$[A-Za-z_]*\$/.exec(rest);
    if (rest.startsWith('--')) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    if (dollar) {
      const tag = dollar[0];
      const end = text.indexOf(tag, i + tag.length);
      const stop = end === -1 ? text.length : end + tag.length;
      current += text.slice(i, stop);
      i = stop;
      continue;
    }
    const ch = text[i]!;
    if (ch === "'") {
      let j = i + 1;
      while (j < text.length && !(text[j] === "'" && text[j + 1] !== "'")) j += text[j] === "'" ? 2 : 1;
      current += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === ';') {
      if (current.trim()) statements.push(current.trim());
      current = '';
      i++;
      continue;
    }
    current += ch;
    i++;
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}

/** A function or procedure a statement creates. */
export interface FunctionDefinition {
  /** Its name as the server stores it: unquoted names folded to lower case, schema left out. */
  name: string;
  orReplace: boolean;
  /** Declared `RETURNS trigger`: triggers depend on it, and it takes no arguments. */
  returnsTrigger: boolean;
}

const IDENTIFIER = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)`;
const CREATE_FUNCTION = new RegExp(
  String.raw`^CREATE\s+(OR\s+REPLACE\s+)?(?:FUNCTION|PROCEDURE)\s+(?:${IDENTIFIER}\s*\.\s*)?(${IDENTIFIER})\s*\(`,
  'i',
);

function identifierName(text: string): string {
  return text.startsWith('"') ? text.slice(1, -1).replaceAll('""', '"') : text.toLowerCase();
}

/** The function a statement creates (`CREATE [OR REPLACE] FUNCTION|PROCEDURE name(`), if it creates one. */
export function functionDefinedBy(statement: string): FunctionDefinition | undefined {
  const m = CREATE_FUNCTION.exec(statement);
  if (!m) return undefined;
  // The declaration is what comes before the body (its first dollar quote or string).
  const declaration = statement.split(/\$[A-Za-z_]*\$|'/, 1)[0]!;
  return { name: identifierName(m[2]!), orReplace: m[1] !== undefined, returnsTrigger: /\bRETURNS\s+trigger\b/i.test(declaration) };
}

/** Every function a SQL file creates, in order. */
export function functionsDefinedIn(text: string): FunctionDefinition[] {
  return splitStatements(text).flatMap((statement) => functionDefinedBy(statement) ?? []);
}

/**
 * Names that more than one place defines: each file is `{file, text}`; a name defined twice in one
 * file counts too. Answers name -> the files defining it (a file once per definition).
 */
export function functionsDefinedTwice(files: Array<{ file: string; text: string }>): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const { file, text } of files) {
    for (const { name } of functionsDefinedIn(text)) where.set(name, [...(where.get(name) ?? []), file]);
  }
  return new Map([...where].filter(([, files]) => files.length > 1));
}
