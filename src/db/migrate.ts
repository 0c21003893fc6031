import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';

const folder = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Applies every `migrations/*.sql` not applied yet, in file-name order, each in its own transaction.
 * An advisory lock makes several instances starting together on one PostgreSQL take turns.
 */
export async function migrate(db: Kysely<any>): Promise<string[]> {
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  const applied: string[] = [];
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(7256001)`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`.execute(trx);
    const done = new Set(
      (await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(trx)).rows.map((r) => r.name),
    );
    for (const name of files) {
      if (done.has(name)) continue;
      for (const statement of splitStatements(readFileSync(folder + name, 'utf8'))) {
        await sql.raw(statement).execute(trx);
      }
      await sql`INSERT INTO schema_migrations (name) VALUES (${name})`.execute(trx);
      applied.push(name);
    }
  });
  return applied;
}

/** Migration files not applied to this database yet (GET /ready: an instance older than its schema, or newer). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const files = readdirSync(folder).filter((name) => name.endsWith('.sql'));
  const applied = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db);
  const done = new Set(applied.rows.map((r) => r.name));
  return files.filter((name) => !done.has(name)).sort();
}

/**
 * Splits a migration into statements, because PGlite's extended protocol runs one at a time.
 * Respects quotes, dollar-quoted bodies and comments.
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
