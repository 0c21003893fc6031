import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely, type Transaction } from 'kysely';
import { functionDefinedBy, splitStatements } from './sql-text.ts';

/** Where the server-side functions live as code: one file each, named after its function. */
export const FUNCTIONS_FOLDER = fileURLToPath(new URL('./functions/', import.meta.url));

/** One `functions/<name>.sql`: the current source of the function `<name>`. */
export interface FunctionSource {
  name: string;
  file: string;
  statement: string;
  sha256: string;
  /** Applied before the migrations, which create the triggers that need it (see apply below). */
  returnsTrigger: boolean;
}

/**
 * The function files of a folder, checked: each holds exactly one statement, a
 * `CREATE OR REPLACE FUNCTION` of the function it is named after. A file that breaks the rule stops
 * the start with its name, before anything is applied.
 */
export function readFunctionSources(folder: string = FUNCTIONS_FOLDER): FunctionSource[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(folder, file), 'utf8');
      const name = file.slice(0, -'.sql'.length);
      const statements = splitStatements(text);
      const defined = statements.length === 1 ? functionDefinedBy(statements[0]!) : undefined;
      if (!defined || defined.name !== name || !defined.orReplace) {
        throw new Error(
          `src/db/functions/${file}: a function file holds exactly one statement, CREATE OR REPLACE FUNCTION ${name}(...), ` +
            `and nothing else (found ${statements.length} statement(s)${defined ? `, defining ${defined.name}` : ''})`,
        );
      }
      return { name, file, statement: statements[0]!, sha256: createHash('sha256').update(text).digest('hex'), returnsTrigger: defined.returnsTrigger };
    });
}

type Trx = Transaction<any> | Kysely<any>;

/** The table that remembers which content of each function file this database runs. */
export async function ensureFunctionTable(trx: Trx): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS schema_functions (
    name text PRIMARY KEY,
    sha256 text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`.execute(trx);
}

/**
 * Applies the given function files whose content this database does not run yet: a recorded hash
 * that differs, or no function of that name in the current schema. Answers the files applied.
 *
 * A file is the whole truth of its function: every other overload of that name goes first (so a
 * changed argument list or return type leaves no older variant behind), then the file runs. A trigger
 * function (RETURNS trigger, never with arguments) is replaced in place instead, because its triggers
 * depend on it. Called inside migrate's transaction, under its advisory lock.
 */
export async function applyFunctionSources(trx: Trx, sources: FunctionSource[]): Promise<string[]> {
  if (sources.length === 0) return [];
  const recorded = new Map(
    (await sql<{ name: string; sha256: string }>`SELECT name, sha256 FROM schema_functions`.execute(trx)).rows.map((r) => [r.name, r.sha256]),
  );
  const present = new Set(
    (await sql<{ name: string }>`SELECT DISTINCT proname AS name FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`.execute(trx)).rows.map((r) => r.name),
  );
  const applied: string[] = [];
  for (const source of sources) {
    if (recorded.get(source.name) === source.sha256 && present.has(source.name)) continue;
    if (!source.returnsTrigger) {
      const overloads = await sql<{ signature: string }>`
        SELECT oid::regprocedure::text AS signature FROM pg_proc
         WHERE proname = ${source.name} AND pronamespace = current_schema()::regnamespace`.execute(trx);
      for (const { signature } of overloads.rows) await sql.raw(`DROP FUNCTION ${signature}`).execute(trx);
    }
    await sql.raw(source.statement).execute(trx);
    await sql`INSERT INTO schema_functions (name, sha256) VALUES (${source.name}, ${source.sha256})
              ON CONFLICT (name) DO UPDATE SET sha256 = excluded.sha256, applied_at = now()`.execute(trx);
    applied.push(`functions/${source.file}`);
  }
  return applied;
}
