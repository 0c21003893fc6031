import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { applyClosedListChecks } from './closed-list-checks.ts';
import { applyFunctionSources, ensureFunctionTable, missingFunctionVersions, ownFunctionSources, readFunctionSources } from './function-sources.ts';
import { splitStatements } from './sql-text.ts';

export { splitStatements } from './sql-text.ts';

const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations/', import.meta.url));

let ownGeneration: number | undefined;

/** The number a migration's name starts with (a name without one: none). */
const numberOf = (name: string) => Number(/^\d+/.exec(name)?.[0] ?? Number.POSITIVE_INFINITY);

/**
 * This build's generation: the highest migration number it has. Builds only ever add migrations with
 * higher numbers, so a newer build has a higher generation. Shared things a start may rewrite (a
 * trigger function's body) are rewritten only by a build of the same or a newer generation than the
 * one that wrote them, and a database that a newer build marked as needing at least generation N
 * (`schema_compat.min_generation`, raised by a migration that older builds cannot live with) makes
 * an older build's GET /ready answer 503 (issue 28 item 4).
 */
export function buildGeneration(folder?: string): number {
  if (folder === undefined) return (ownGeneration ??= buildGeneration(MIGRATIONS_FOLDER));
  const numbers = readdirSync(folder).filter((name) => name.endsWith('.sql')).map(numberOf).filter(Number.isFinite);
  return Math.max(0, ...numbers);
}

/** How long an instance waits for another instance's migration (the advisory lock) before giving up. */
export const MIGRATE_TURN_WAIT_MS = 120_000;
const MIGRATE_LOCK_KEY = 7256001;

/**
 * Brings the database to this code's schema and server-side functions, in ONE transaction:
 *   1. the trigger functions of `functions/*.sql` whose content the database does not run yet (the
 *      migrations create the triggers that need them; a trigger function's creation needs nothing of
 *      the schema);
 *   2. every `migrations/*.sql` not applied yet, in the order of their numbers (schema and data
 *      changes only; see `inMigrationOrder`);
 *   3. the other functions of `functions/*.sql` whose content the database does not run yet;
 *   4. the CHECK constraints of the closed lists (src/domain/closed-lists.ts) that say otherwise
 *      than their list (closed-list-checks.ts).
 * Migrations are tracked by name, function files by the hash of their content (function-sources.ts).
 * An advisory lock makes several instances starting together on one PostgreSQL take turns.
 * Answers what was applied: migration file names, then `functions/<file>` for each function file,
 * then `checks/<constraint>` for each list constraint changed.
 */
export async function migrate(
  db: Kysely<any>,
  folders: { migrations?: string; functions?: string } = {},
): Promise<string[]> {
  const folder = folders.migrations ?? MIGRATIONS_FOLDER;
  const files = inMigrationOrder(readdirSync(folder).filter((name) => name.endsWith('.sql')));
  const functions = folders.functions === undefined ? ownFunctionSources() : readFunctionSources(folders.functions);
  const generation = folders.migrations === undefined ? buildGeneration() : buildGeneration(folder);
  const applied: string[] = [];
  const appliedFunctions: string[] = [];
  const appliedChecks: string[] = [];
  await db.transaction().execute(async (trx) => {
    await waitForTurn(trx);
    await ensureFunctionTable(trx);
    appliedFunctions.push(...(await applyFunctionSources(trx, functions.filter((f) => f.returnsTrigger), generation)));
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`.execute(trx);
    const done = new Set(
      (await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(trx)).rows.map((r) => r.name),
    );
    for (const name of files) {
      if (done.has(name)) continue;
      for (const statement of splitStatements(readFileSync(path.join(folder, name), 'utf8'))) {
        await sql.raw(statement).execute(trx);
      }
      await sql`INSERT INTO schema_migrations (name) VALUES (${name})`.execute(trx);
      applied.push(name);
    }
    appliedFunctions.push(...(await applyFunctionSources(trx, functions.filter((f) => !f.returnsTrigger), generation)));
    appliedChecks.push(...(await applyClosedListChecks(trx)));
  });
  return [...applied, ...appliedFunctions, ...appliedChecks];
}

/**
 * Why this build cannot serve this database's schema, if it cannot (GET /ready): migrations of its
 * own not applied yet; a newer build marked the schema as needing a newer generation than this
 * build's; or this build's versions of the server-side functions are missing (migrate has not run
 * for this build). Undefined when it can.
 */
export async function schemaMismatch(db: Kysely<any>): Promise<string | undefined> {
  const pending = await pendingMigrations(db);
  if (pending.length > 0) return `pending: ${pending.join(', ')}`;
  const generation = buildGeneration();
  const { rows } = await sql<{ min_generation: number }>`SELECT min_generation FROM schema_compat`.execute(db);
  const needed = rows[0]?.min_generation ?? 0;
  if (needed > generation) {
    return `the database's schema needs a build of generation ${needed} or newer (a newer build's migrations changed what this build relies on); this build is generation ${generation}`;
  }
  const missing = await missingFunctionVersions(db);
  if (missing.length > 0) return `this build's server-side functions are missing (${missing.join(', ')}): its migrate has not run on this database`;
  return undefined;
}

/** Migration files not applied to this database yet (GET /ready: an instance older than its schema, or newer). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_FOLDER).filter((name) => name.endsWith('.sql'));
  const applied = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db);
  const done = new Set(applied.rows.map((r) => r.name));
  return inMigrationOrder(files.filter((name) => !done.has(name)));
}

/**
 * Migration files by the number their name starts with, then by name (two files of one number).
 * Plain string order put `1000_x.sql` between `010_` and `100_`: on a fresh database it would run
 * before the migrations it builds on. For the three-digit names this is the order it always was.
 */
export function inMigrationOrder(names: string[]): string[] {
  // A name without a number (none exists) goes last, by name.
  return [...names].sort((a, b) => numberOf(a) - numberOf(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Takes migrate's advisory lock for this transaction, waiting while another instance migrates. The
 * pool's request-sized bounds (a 3 s lock timeout, a 12 s client query timeout) would stop an instance
 * that starts beside another one, so the lock is tried in short statements until MIGRATE_TURN_WAIT_MS.
 */
async function waitForTurn(trx: Kysely<any>): Promise<void> {
  const deadline = performance.now() + MIGRATE_TURN_WAIT_MS;
  for (;;) {
    const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${MIGRATE_LOCK_KEY}) AS locked`.execute(trx);
    if (rows[0]?.locked) return;
    if (performance.now() >= deadline) {
      throw new Error(`another instance has been migrating this database for ${MIGRATE_TURN_WAIT_MS / 1000} s; not starting`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

