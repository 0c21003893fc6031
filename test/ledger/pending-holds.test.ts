import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/ledger/ledger.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';

/**
 * Issue 28 item 1: a debit the admission holds is held without postings (the PENDING row is the
 * hold, `transactions.hold_unposted`); its settlement posts one journal, available -> counter (+ fee),
 * and its release posts nothing. The ledger check counts those pending holds as blocked. A build
 * before migration 1400, settling or releasing such a debit the old way during a rolling deploy, has
 * its postings mapped by the `postings_hold_compat` trigger.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const cashOut = (externalId: string, value: number) => ({
  value,
  externalId,
  description: 'fornecedor',
  details: { key: 'fornecedor@example.com', keyType: 'EMAIL', name: 'Fornecedor Ltda', document: cpf(4242) },
});

interface PostingRow {
  bucket: string | null;
  ledger_account: string | null;
  delta: number;
  reason: string;
  journal_id: string;
}

async function postingsOf(transactionId: number): Promise<PostingRow[]> {
  const rows = await sql<PostingRow>`
    SELECT bucket, ledger_account, delta::int AS delta, reason, journal_id::text AS journal_id
      FROM postings WHERE transaction_id = ${transactionId} ORDER BY bucket NULLS LAST, ledger_account`.execute(h.c.db);
  return rows.rows;
}

async function rowOf(accountId: number, externalId: string) {
  return h.c.db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('external_id', '=', externalId).executeTakeFirstOrThrow();
}

describe('debits held without postings (the pending set)', () => {
  it('a cash-out: no postings while PENDING, the ledger check green; settled: one balanced journal from available', async () => {
    const account = await h.createAccount({ funds: 500 });
    const token = await h.tokenFor(account.id);
    const res = await h.api('POST', '/api/pix/cash-out', token, cashOut('lean-ok', 120.25));
    expect(res.statusCode, res.body).toBe(201);
    const row = await rowOf(account.id, 'lean-ok');
    expect(row).toMatchObject({ status: 'PENDING', hold_unposted: true });
    expect(await h.balance(account.id)).toEqual({ available: 379.75, blocked: 120.25 });
    expect(await postingsOf(row.id)).toEqual([]);
    expect(await checkLedger(h.c.db)).toMatchObject({ ok: true, drift: { count: 0 } });

    await h.advance(2);
    expect(await rowOf(account.id, 'lean-ok')).toMatchObject({ status: 'CONFIRMED' });
    expect(await h.balance(account.id)).toEqual({ available: 379.75, blocked: 0 });
    const posted = await postingsOf(row.id);
    expect(posted.map(({ bucket, ledger_account, delta, reason }) => ({ bucket, ledger_account, delta, reason }))).toEqual([
      { bucket: 'available', ledger_account: null, delta: -12_025, reason: 'settle' },
      { bucket: null, ledger_account: 'network:sandbox', delta: 12_025, reason: 'settle' },
    ]);
    expect(new Set(posted.map((p) => p.journal_id)).size).toBe(1);
    expect(await checkLedger(h.c.db)).toMatchObject({ ok: true, postings: { total: 0 }, drift: { count: 0 }, unbalancedJournals: { count: 0 } });
  });

  it('a rejected cash-out posts nothing at all and gives the money back', async () => {
    const account = await h.createAccount({ funds: 300 });
    const token = await h.tokenFor(account.id);
    const res = await h.api('POST', '/api/pix/cash-out', token, cashOut('lean-bad', 50), { 'x-sandbox-scenario': 'error:account-blocked' });
    expect(res.statusCode, res.body).toBe(201);
    await h.advance(2);
    const row = await rowOf(account.id, 'lean-bad');
    expect(row).toMatchObject({ status: 'ERROR', hold_unposted: true });
    expect(await h.balance(account.id)).toEqual({ available: 300, blocked: 0 });
    expect(await postingsOf(row.id)).toEqual([]);
    expect(await checkLedger(h.c.db)).toMatchObject({ ok: true, drift: { count: 0 } });
  });

  it('the check finds a pending hold that the balances lost (it is not blind to the pending set)', async () => {
    const own = await startHarness();
    try {
      const account = await own.createAccount({ funds: 100 });
      const token = await own.tokenFor(account.id);
      expect((await own.api('POST', '/api/pix/cash-out', token, cashOut('lean-drift', 40))).statusCode).toBe(201);
      // Behind the ledger's back: the blocked money vanishes while its debit is still PENDING.
      await sql`UPDATE accounts SET blocked = 0 WHERE id = ${account.id}`.execute(own.c.db);
      const check = await checkLedger(own.c.db);
      expect(check.ok).toBe(false);
      expect(check.drift.items).toEqual([{ id: account.id, available: 6_000, blocked: 0, postedAvailable: 6_000, postedBlocked: 4_000 }]);
      await sql`UPDATE accounts SET blocked = 4000 WHERE id = ${account.id}`.execute(own.c.db);
      expect((await checkLedger(own.c.db)).ok).toBe(true);
    } finally {
      await own.close();
    }
  });

  it('a build before migration 1400 settling or releasing such a debit the old way: its postings are mapped, the ledger stays green', async () => {
    const account = await h.createAccount({ funds: 200 });
    const token = await h.tokenFor(account.id);
    for (const id of ['old-settle', 'old-release']) expect((await h.api('POST', '/api/pix/cash-out', token, cashOut(id, 30))).statusCode).toBe(201);
    const settling = await rowOf(account.id, 'old-settle');
    const releasing = await rowOf(account.id, 'old-release');
    // What the older build's finishing does: the row final, the balance moved, and the postings of a
    // hold it believes was posted (blocked -> network; blocked -> available), one journal each.
    await h.c.db.transaction().execute(async (trx) => {
      await sql`UPDATE transactions SET status = CASE id WHEN ${settling.id} THEN 'CONFIRMED' ELSE 'ERROR' END WHERE id IN (${settling.id}, ${releasing.id})`.execute(trx);
      await sql`UPDATE accounts SET blocked = blocked - 6000, available = available + 3000 WHERE id = ${account.id}`.execute(trx);
      await sql`INSERT INTO postings (account_id, bucket, ledger_account, transaction_id, delta, reason, journal_id, created_at) VALUES
        (${account.id}, 'blocked', NULL, ${settling.id}, -3000, 'settle', '00000000-0000-4000-8000-00000000a001', now()),
        (NULL, NULL, 'network:sandbox', ${settling.id}, 3000, 'settle', '00000000-0000-4000-8000-00000000a001', now()),
        (${account.id}, 'blocked', NULL, ${releasing.id}, -3000, 'release', '00000000-0000-4000-8000-00000000a002', now()),
        (${account.id}, 'available', NULL, ${releasing.id}, 3000, 'release', '00000000-0000-4000-8000-00000000a002', now())`.execute(trx);
    });
    expect((await postingsOf(settling.id)).map((p) => [p.bucket, p.ledger_account, p.delta])).toEqual([
      ['available', null, -3000],
      [null, 'network:sandbox', 3000],
    ]);
    expect(await postingsOf(releasing.id)).toEqual([]);
    expect(await h.balance(account.id)).toEqual({ available: 170, blocked: 0 });
    expect(await checkLedger(h.c.db)).toMatchObject({ ok: true, drift: { count: 0 }, unbalancedJournals: { count: 0 } });
  });

  it('a hold that was posted (a MED block, a build before 1400) still settles and releases from blocked', async () => {
    const account = await h.createAccount({ funds: 100 });
    const { ledger } = h.c;
    await h.c.db.transaction().execute(async (trx) => {
      expect(await ledger.holdOne(trx, { accountId: account.id, amount: 4_000 as never, transactionId: null, reason: 'med_block' })).toMatchObject({ ok: true, blocked: 4_000 });
      expect(await ledger.settleOne(trx, { accountId: account.id, amount: 1_000 as never, transactionId: null, reason: 'settle', counter: 'med_clearing' })).toMatchObject({ ok: true, blocked: 3_000 });
      expect(await ledger.releaseOne(trx, { accountId: account.id, amount: 3_000 as never, transactionId: null, reason: 'release' })).toMatchObject({ ok: true, available: 9_000, blocked: 0 });
    });
    const rows = await sql<{ bucket: string; total: number }>`
      SELECT bucket, sum(delta)::int AS total FROM postings WHERE account_id = ${account.id} AND reason <> 'deposit' GROUP BY bucket ORDER BY bucket`.execute(h.c.db);
    expect(rows.rows).toEqual([
      { bucket: 'available', total: -1_000 },
      { bucket: 'blocked', total: 0 },
    ]);
    expect(await checkLedger(h.c.db)).toMatchObject({ ok: true, drift: { count: 0 } });
  });
});
