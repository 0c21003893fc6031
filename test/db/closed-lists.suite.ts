import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { applyClosedListChecks, CLOSED_LIST_CHECKS, storedListChecks } from '../../src/db/closed-list-checks.ts';
import { migrate } from '../../src/db/migrate.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/closed-lists.ts';

/**
 * Issue 22 item 5: the database's CHECK constraints of closed lists, read back from pg_constraint on a
 * migrated database, are exactly the lists of src/domain/closed-lists.ts (none missing, none extra,
 * none with other values). Run on PGlite (test/db) and PostgreSQL (test/postgres).
 */
export function closedListSuite(open: () => Promise<Database>, close: (database: Database) => Promise<void>) {
  let database: Database;
  beforeAll(async () => {
    database = await open();
    await migrate(database.db);
  });
  afterAll(() => close(database));

  describe('closed lists: the database says what src/domain/closed-lists.ts says', () => {
    it('every list constraint of the migrated schema is declared, with the same values, and every declared one exists', async () => {
      const stored = await storedListChecks(database.db);
      const view = (c: { table: string; column: string; constraint: string; values: readonly string[] }) => ({
        table: c.table, column: c.column, constraint: c.constraint, values: [...c.values].sort(),
      });
      const byKey = (a: { constraint: string }, b: { constraint: string }) => a.constraint.localeCompare(b.constraint);
      expect(stored.map(view).sort(byKey)).toEqual(CLOSED_LIST_CHECKS.map(view).sort(byKey));
      // The reading is not vacuous: the webhook events appear twice (events.type, webhooks.event_type).
      expect(stored.filter((s) => s.values.join() === WEBHOOK_EVENT_TYPES.join()).map((s) => s.constraint).sort()).toEqual(['events_type_check', 'webhooks_event_type_check']);
    });

    it('a list that changes in the source changes the constraint at the next migrate, and the database then enforces it', async () => {
      const grown = CLOSED_LIST_CHECKS.map((c) => (c.constraint === 'jobs_status_check' ? { ...c, values: [...c.values, 'parked'] } : c));
      await database.db.transaction().execute(async (trx) => {
        expect(await applyClosedListChecks(trx, grown)).toEqual(['checks/jobs_status_check']);
        expect(await applyClosedListChecks(trx, grown)).toEqual([]);
        expect((await storedListChecks(trx)).find((s) => s.constraint === 'jobs_status_check')?.values).toEqual(['pending', 'failed', 'parked']);
      });
      // Back to the source's list: migrate puts it back, and the value outside the list is refused.
      expect(await migrate(database.db)).toEqual(['checks/jobs_status_check']);
      await expect(
        sql`INSERT INTO jobs (kind, run_at, status, created_at, updated_at) VALUES ('x', now(), 'parked', now(), now())`.execute(database.db),
      ).rejects.toThrow(/jobs_status_check/);
      expect(await migrate(database.db)).toEqual([]);
    });
  });
}
