import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transact } from '../../src/db/transact.ts';
import { startHarness, type Harness } from '../harness.ts';
import { schemaOf, sideConnection, waitForWaiters } from './pg-tools.ts';

/**
 * Issue 10 item 4 on real PostgreSQL: a transaction of the service that PostgreSQL picks as a
 * deadlock's victim is rerun by `transact` and commits once; the other side goes on.
 */
let h: Harness;
let schema: string;
beforeAll(async () => {
  h = await startHarness();
  schema = await schemaOf(h);
});
afterAll(() => h.close());

describe('transact on a real deadlock (PostgreSQL)', () => {
  it('the victim of a deadlock (40P01) is rerun from the start and commits once', async () => {
    const a = await h.createAccount({ name: 'A' });
    const b = await h.createAccount({ name: 'B' });
    const other = await sideConnection(schema);
    const observer = await sideConnection(schema);
    try {
      // The other side detects deadlocks late, so PostgreSQL aborts the service's transaction.
      await other.query("SET deadlock_timeout = '10s'");
      await other.query('BEGIN');
      await other.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [b.id]);
      const errors: string[] = [];
      let runs = 0;
      const command = transact(h.c.db, async (trx) => {
        runs += 1;
        try {
          await trx.updateTable('accounts').set({ name: sql`name || '+'` }).where('id', '=', a.id).execute();
          await trx.updateTable('accounts').set({ name: sql`name || '+'` }).where('id', '=', b.id).execute(); // waits for the other side
        } catch (error) {
          errors.push((error as { code?: string }).code ?? String(error));
          throw error;
        }
        return runs;
      });
      expect(await waitForWaiters(observer, other.pid, 1)).toBe(1);
      // A -> B here, B -> A there: a deadlock; the service's side is the one aborted.
      await other.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [a.id]);
      await other.query('COMMIT');
      expect(await command).toBe(2);
      expect(errors).toEqual(['40P01']);
      const names = await h.c.db.selectFrom('accounts').select(['id', 'name']).where('id', 'in', [a.id, b.id]).orderBy('id').execute();
      expect(names.map((n) => n.name)).toEqual(['A+', 'B+']);
    } finally {
      await other.end();
      await observer.end();
    }
  });
});
