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
  /** The name the file defines and the code calls it by (`fn(name)`). */
  name: string;
  file: string;
  /**
   * The name it has in the database: `<name>_v<first 10 hex of its content hash>` (issue 28 item 4: a
   * build calls its own version, so an older build that starts later never replaces a newer body);
   * a trigger function keeps its name (its triggers hold it by name).
   */
  sqlName: string;
  /** The statement as applied: the versioned name, and the versioned names of the functions it calls. */
  statement: string;
  sha256: string;
  /** Applied before the migrations, which create the triggers that need it (see apply below). */
  returnsTrigger: boolean;
}

/** A function file as read, before its name and calls are versioned. */
interface RawSource {
  name: string;
  file: string;
  text: string;
  statement: string;
  returnsTrigger: boolean;
}

/** `name(` as a call or a declaration (not a longer identifier that ends with it). */
const callOf = (name: string) => new RegExp(String.raw`(?<![\w$])${name}(?=\s*\()`, 'g');

/**
 * The function files of a folder, checked: each holds exactly one statement, a
 * `CREATE OR REPLACE FUNCTION` of the function it is named after. A file that breaks the rule stops
 * the start with its name, before anything is applied. Each non-trigger function gets its versioned
 * name; a function's version covers the versions of the functions it calls (a changed `ledger_apply`
 * is a new `admit_payouts` too), so the files are versioned callees first (a cycle stops the start).
 */
export function readFunctionSources(folder: string = FUNCTIONS_FOLDER): FunctionSource[] {
  const raw: RawSource[] = readdirSync(folder)
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
      return { name, file, text, statement: statements[0]!, returnsTrigger: defined.returnsTrigger };
    });
  const byName = new Map(raw.map((r) => [r.name, r]));
  const done = new Map<string, FunctionSource>();
  const visiting = new Set<string>();
  const versioned = (source: RawSource): FunctionSource => {
    const known = done.get(source.name);
    if (known) return known;
    if (visiting.has(source.name)) throw new Error(`src/db/functions/${source.file}: functions that call each other in a cycle cannot be versioned`);
    visiting.add(source.name);
    // The calls of other (non-trigger) functions point at their versions; then the content names this one.
    let statement = source.statement;
    for (const callee of byName.values()) {
      if (callee.name === source.name || callee.returnsTrigger || !callOf(callee.name).test(statement)) continue;
      statement = statement.replace(callOf(callee.name), versioned(callee).sqlName);
    }
    // A trigger function's hash stays that of its file, as builds before versioning recorded it.
    const sha256 = createHash('sha256').update(source.returnsTrigger ? source.text : statement).digest('hex');
    const sqlName = source.returnsTrigger ? source.name : `${source.name}_v${sha256.slice(0, 10)}`;
    if (!source.returnsTrigger) statement = statement.replace(callOf(source.name), sqlName);
    const result = { name: source.name, file: source.file, sqlName, statement, sha256, returnsTrigger: source.returnsTrigger };
    visiting.delete(source.name);
    done.set(source.name, result);
    return result;
  };
  return raw.map(versioned);
}

/** The functions the code calls (src/db/functions/<name>.sql): test/db/function-sources.test.ts keeps this list and the folder equal. */
export const CALLED_FUNCTIONS = ['admit_payouts', 'claim_due_jobs', 'ledger_apply', 'next_due_job', 'pix_fee', 'record_auth_failure'] as const;
export type CalledFunction = (typeof CALLED_FUNCTIONS)[number];

let own: FunctionSource[] | undefined;
/**
 * This build's function files, as read once by this process: what its code calls, whatever the files
 * on disk say later (a checkout updated under a running process is another build).
 */
export function ownFunctionSources(): FunctionSource[] {
  own ??= readFunctionSources();
  return own;
}

/** This build's database name of a function: `sql` text to call it by (`SELECT ... FROM ${fn('ledger_apply')}(...)`). */
export function fn(name: CalledFunction) {
  const sqlName = ownFunctionSources().find((s) => s.name === name)?.sqlName;
  if (!sqlName) throw new Error(`no function file src/db/functions/${name}.sql`);
  return sql.raw(sqlName);
}

type Trx = Transaction<any> | Kysely<any>;

/** The table that remembers which content of each function file this database runs, and by which build. */
export async function ensureFunctionTable(trx: Trx): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS schema_functions (
    name text PRIMARY KEY,
    sha256 text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`.execute(trx);
  // generation: the build generation (migrate.ts) that wrote a trigger function's body; last_seen_at:
  // when a build that calls a versioned function last started or beat (the age that lets it go).
  await sql`ALTER TABLE schema_functions ADD COLUMN IF NOT EXISTS generation integer, ADD COLUMN IF NOT EXISTS last_seen_at timestamptz`.execute(trx);
}

/** A versioned function no build has started with or beaten for this long is dropped by the next migrate. */
export const FUNCTION_VERSION_RETENTION_HOURS = 7 * 24;

/**
 * Applies what this build's function files need (issue 28 item 4: rolling upgrades never go back):
 *  - a versioned function (every non-trigger one) is created when the database lacks its versioned
 *    name, and never replaced: its name is its content. Every build calls its own versions, so an
 *    older build that starts later creates its own beside a newer one's and changes nothing of it.
 *    Each start marks its versions seen; versions of other builds unseen for
 *    FUNCTION_VERSION_RETENTION_HOURS are dropped (no running build calls them: running builds beat,
 *    see touchFunctionVersions). Names without a version (builds before this rule) are never dropped here.
 *  - a trigger function (its triggers hold it by name) is created when absent, and replaced in place
 *    only by a build of the same or a newer generation than the one that wrote it.
 * Called inside migrate's transaction, under its advisory lock. Answers the files applied.
 */
export async function applyFunctionSources(trx: Trx, sources: FunctionSource[], generation: number): Promise<string[]> {
  if (sources.length === 0) return [];
  const recorded = new Map(
    (await sql<{ name: string; sha256: string; generation: number | null }>`SELECT name, sha256, generation FROM schema_functions`.execute(trx)).rows.map((r) => [r.name, r]),
  );
  const present = new Set(
    (await sql<{ name: string }>`SELECT DISTINCT proname AS name FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`.execute(trx)).rows.map((r) => r.name),
  );
  const applied: string[] = [];
  for (const source of sources) {
    const record = recorded.get(source.sqlName);
    if (source.returnsTrigger) {
      const current = record?.sha256 === source.sha256 && present.has(source.sqlName);
      const newerWroteIt = present.has(source.sqlName) && (record?.generation ?? 0) > generation;
      if (current || newerWroteIt) continue;
    } else if (present.has(source.sqlName)) {
      continue;
    }
    await sql.raw(source.statement).execute(trx);
    await sql`INSERT INTO schema_functions (name, sha256, generation, last_seen_at) VALUES (${source.sqlName}, ${source.sha256}, ${generation}, now())
              ON CONFLICT (name) DO UPDATE SET sha256 = excluded.sha256, generation = excluded.generation, applied_at = now(), last_seen_at = now()`.execute(trx);
    applied.push(`functions/${source.file}`);
  }
  const versioned = sources.filter((s) => !s.returnsTrigger);
  if (versioned.length > 0) {
    await touchFunctionVersions(trx, versioned);
    await dropUnseenVersions(trx, versioned);
  }
  return applied;
}

/** Marks this build's versioned functions as called by a running build (at start, and by the heartbeat of main.ts). */
export async function touchFunctionVersions(db: Trx, sources: FunctionSource[] = ownFunctionSources()): Promise<void> {
  const names = sources.filter((s) => !s.returnsTrigger).map((s) => s.sqlName);
  await sql`UPDATE schema_functions SET last_seen_at = now() WHERE name = ANY (${names}::text[])`.execute(db);
}

/** Versions of this build's functions that no build has marked seen for the retention period: dropped, with their record. */
async function dropUnseenVersions(trx: Trx, own: FunctionSource[]): Promise<void> {
  const pattern = `^(${own.map((s) => s.name).join('|')})_v[0-9a-f]{10}$`;
  const { rows } = await sql<{ signature: string; name: string }>`
    SELECT p.oid::regprocedure::text AS signature, p.proname AS name
      FROM schema_functions f JOIN pg_proc p ON p.proname = f.name AND p.pronamespace = current_schema()::regnamespace
     WHERE f.name ~ ${pattern} AND NOT f.name = ANY (${own.map((s) => s.sqlName)}::text[])
       AND f.last_seen_at < now() - make_interval(hours => ${FUNCTION_VERSION_RETENTION_HOURS})`.execute(trx);
  for (const { signature, name } of rows) {
    await sql.raw(`DROP FUNCTION ${signature}`).execute(trx);
    await sql`DELETE FROM schema_functions WHERE name = ${name}`.execute(trx);
  }
}

/** This build's versioned functions the database lacks (GET /ready: migrate has not run for this build). */
export async function missingFunctionVersions(db: Trx, sources: FunctionSource[] = ownFunctionSources()): Promise<string[]> {
  const names = sources.map((s) => s.sqlName);
  const { rows } = await sql<{ name: string }>`
    SELECT DISTINCT proname AS name FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname = ANY (${names}::text[])`.execute(db);
  const found = new Set(rows.map((r) => r.name));
  return names.filter((n) => !found.has(n));
}
