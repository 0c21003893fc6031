import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { inMigrationOrder, migrate, splitStatements } from '../../src/db/migrate.ts';
import { checkLedger } from '../../src/ledger/ledger.ts';

const folder = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const LEDGER_MIGRATION = '610_double_entry_ledger.sql';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
});
afterAll(() => database.close());

describe('migration 610 (double-entry ledger) on a database with single-entry postings', () => {
  it('groups the old postings into journals and balances what did not balance against suspense', async () => {
    const db = database.db;
    // The schema as it was before: every migration up to 610, recorded as applied.
    await sql`CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(db);
    // In migrate's order (by number: a four-digit migration comes after every three-digit one).
    for (const name of inMigrationOrder(readdirSync(folder).filter((n) => n.endsWith('.sql')))) {
      if (name === LEDGER_MIGRATION) break;
      for (const statement of splitStatements(readFileSync(folder + name, 'utf8'))) await sql.raw(statement).execute(db);
      await sql`INSERT INTO schema_migrations (name) VALUES (${name})`.execute(db);
    }
    const at = new Date('2026-01-02T03:04:05Z');
    await sql`INSERT INTO accounts (id, name, document, type, pix_key, available, blocked, limit_per_transaction, limit_daily, limit_nightly, created_at, updated_at)
              VALUES (1, 'Old', '12345678909', 'INDIVIDUAL', 'k', 700, 200, 1, 1, 1, ${at}, ${at})`.execute(db);
    // A credit of 1000 (single entry), a hold of 300, a settle of 100: as the old ledger wrote them.
    await sql`INSERT INTO postings (account_id, transaction_id, bucket, delta, reason, created_at) VALUES
      (1, NULL, 'available', 1000, 'deposit', ${at}),
      (1, NULL, 'available', -300, 'hold', ${new Date(at.getTime() + 1000)}),
      (1, NULL, 'blocked', 300, 'hold', ${new Date(at.getTime() + 1000)}),
      (1, NULL, 'blocked', -100, 'settle', ${new Date(at.getTime() + 2000)})`.execute(db);

    expect(await migrate(db)).toContain(LEDGER_MIGRATION);

    const check = await checkLedger(db);
    expect(check).toMatchObject({ ok: true, postings: { count: 6, total: 0 }, unbalancedJournals: { count: 0 }, drift: { count: 0 } });
    expect(check.systemAccounts.find((a) => a.code === 'suspense')?.balance).toBe(-900);
    const journals = await sql<{ n: number }>`SELECT count(DISTINCT journal_id)::int AS n FROM postings`.execute(db);
    expect(journals.rows[0]!.n).toBe(3);
  });
});
