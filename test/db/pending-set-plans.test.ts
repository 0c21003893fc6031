import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { transactionsRepo } from '../../src/db/repos/transactions.repo.ts';
import { migratedSnapshot } from '../pglite-snapshot.ts';

/**
 * Settling a batch of payouts (finishManyPending, the check step's and the notices' write) must find
 * its rows by their ids, whatever the statistics say. The PENDING rows' statistics are always stale
 * (a payout settles within a second of being counted), and with the outcomes only joined by id the
 * planner read every PENDING row through transactions_account_status_created instead: the cost of a
 * settlement grew with the backlog of unsettled payouts, not with the batch. Measured with 2,000 and
 * 20,000 PENDING payouts that the last ANALYZE saw as CONFIRMED: pages the settlement of 40 reads (the
 * table's and its status index's), against the statement it replaced.
 */
const opened: Database[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
});


/** Pages of `transactions` and of its status index the settlement of 40 PENDING payouts reads, and how many it settled. */
async function pagesReadToSettle40(pending: number, settle: (db: Kysely<any>, ids: number[]) => Promise<number>): Promise<{ read: number; settled: number }> {
  const database = await openDatabase({ dataDir: 'memory://', loadDataDir: await migratedSnapshot(), vacuum: false });
  opened.push(database);
  const db = database.db;
  const account = (
    await sql<{ id: number }>`INSERT INTO accounts (name, document, type, pix_key, limit_per_transaction, limit_daily, limit_nightly, created_at, updated_at)
      VALUES ('Loja', '12345678901', 'INDIVIDUAL', 'loja@example.com', 1, 1, 1, now(), now()) RETURNING id`.execute(db)
  ).rows[0]!;
  await sql`INSERT INTO transactions (transaction_id, account_id, kind, status, origin, original_amount, final_amount, created_at, updated_at)
            SELECT gen_random_uuid(), ${account.id}, 'WITHDRAW', 'CONFIRMED', 'cash_out', 100, 100, now(), now() FROM generate_series(1, ${pending}::int)`.execute(db);
  await sql`ANALYZE transactions`.execute(db);
  // Unsettled since the last ANALYZE: the planner still counts none PENDING.
  await sql`UPDATE transactions SET status = 'PENDING'`.execute(db);
  // 40 spread over the backlog, the same ones in every run.
  const ids = (await sql<{ id: string }>`SELECT id FROM transactions WHERE id % ${pending / 40}::int = 0 ORDER BY id LIMIT 40`.execute(db)).rows.map((r) => Number(r.id));
  // In one transaction: the counters of the current transaction are what it read.
  return db.transaction().execute(async (trx) => {
    const read = async () =>
      Number(
        (await sql<{ n: string }>`SELECT pg_stat_get_xact_blocks_fetched('transactions'::regclass) + pg_stat_get_xact_blocks_fetched('transactions_account_status_created'::regclass) AS n`.execute(trx)).rows[0]!.n,
      );
    const before = await read();
    const settled = await settle(trx, ids);
    return { read: (await read()) - before, settled };
  });
}

describe('settling payouts with a backlog of PENDING ones and stale statistics', () => {
  it('reads as many pages with 20,000 PENDING as with 2,000; the statement it replaced read twice as many (the control)', async () => {
    const outcome = (id: number) => ({ id, status: 'CONFIRMED' as const, endToEndId: `E${id}`, errorCode: null, errorMessage: null });
    const repo = (pending: number) => pagesReadToSettle40(pending, async (db, ids) => (await transactionsRepo.finishManyPending(db, new Date(), ids.map(outcome))).length);
    const control = (pending: number) =>
      pagesReadToSettle40(pending, async (db, ids) =>
        (
          await sql`UPDATE transactions t SET status = v.status, end_to_end_id = v.e2e
                      FROM jsonb_to_recordset(${JSON.stringify(ids.map((id) => ({ id, status: 'CONFIRMED', e2e: `E${id}` })))}::jsonb) AS v (id bigint, status text, e2e text)
                     WHERE t.id = v.id AND t.status = 'PENDING' RETURNING t.id`.execute(db)
        ).rows.length,
      );
    const [repoSmall, repoLarge, controlSmall, controlLarge] = [await repo(2_000), await repo(20_000), await control(2_000), await control(20_000)];
    console.log(`pages read to settle 40 with 2,000 / 20,000 PENDING: ${repoSmall.read} / ${repoLarge.read} by id, ${controlSmall.read} / ${controlLarge.read} the statement it replaced`);
    for (const run of [repoSmall, repoLarge, controlSmall, controlLarge]) expect(run.settled).toBe(40);
    expect(repoLarge.read).toBeLessThanOrEqual(repoSmall.read * 1.3);
    expect(controlLarge.read).toBeGreaterThan(controlSmall.read * 1.5);
    expect(controlLarge.read).toBeGreaterThan(repoLarge.read * 1.5);
  });
});
