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

    it('a list that grows in the source widens the constraint at the next migrate; a start with the shorter list (an older build) never narrows it back', async () => {
      const grown = CLOSED_LIST_CHECKS.map((c) => (c.constraint === 'jobs_status_check' ? { ...c, values: [...c.values, 'parked'] } : c));
      const statuses = async (trx: typeof database.db) => (await storedListChecks(trx)).find((s) => s.constraint === 'jobs_status_check')?.values;
      const undone = new Error('undo the test\'s changes');
      await expect(
        database.db.transaction().execute(async (trx) => {
          expect(await applyClosedListChecks(trx, grown)).toEqual(['checks/jobs_status_check']);
          expect(await applyClosedListChecks(trx, grown)).toEqual([]);
          expect(await statuses(trx)).toEqual(['pending', 'failed', 'parked']);
          // The newer build writes the new value; an older build (the source's own, shorter list) then starts.
          await sql`INSERT INTO jobs (kind, run_at, status, created_at, updated_at) VALUES ('x', now(), 'parked', now(), now())`.execute(trx);
          expect(await applyClosedListChecks(trx)).toEqual([]);
          expect(await statuses(trx)).toEqual(['pending', 'failed', 'parked']);
          // Still a closed list: a value no build knows is refused.
          await sql`SAVEPOINT outside`.execute(trx);
          await expect(
            sql`INSERT INTO jobs (kind, run_at, status, created_at, updated_at) VALUES ('x', now(), 'elsewhere', now(), now())`.execute(trx),
          ).rejects.toThrow(/jobs_status_check/);
          await sql`ROLLBACK TO SAVEPOINT outside`.execute(trx);
          throw undone;
        }),
      ).rejects.toBe(undone);
      expect(await statuses(database.db)).toEqual(['pending', 'failed']);
      expect(await migrate(database.db)).toEqual([]);
    });
  });
}
