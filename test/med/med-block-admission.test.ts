import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cents } from '../../src/domain/money.ts';
import { DomainError } from '../../src/domain/errors/domain-error.ts';
import { SUBMIT_STEP_JOB } from '../../src/services/settlement/payment-steps.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody } from '../payouts/helpers.ts';
import { accountWithReceivedPix } from '../refunds/refund-helpers.ts';

/**
 * Issue 28 item 5: a MED's opening block goes through the one debit admission (admit_payouts, as a
 * block item: BLOCK_ORIGIN_RULES.med_block), not through a lock and a hold of its own. What a client
 * sees is unchanged: the MED, its blocked amount, its event, the balances (test/med/med.test.ts).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const openMed = (token: string, body: Record<string, unknown>) => h.api('POST', '/sandbox/med', token, body);
const centsOf = async (accountId: number) =>
  h.c.db.selectFrom('accounts').select(['available', 'blocked']).where('id', '=', accountId).executeTakeFirstOrThrow();
const medBlockPostings = (originalId: number) =>
  h.c.db.selectFrom('postings').select(['account_id', 'bucket', 'delta']).where('transaction_id', '=', originalId).where('reason', '=', 'med_block').orderBy('id').execute();
const count = async (table: 'transactions' | 'payout_limit_usage', accountId: number) =>
  Number((await h.c.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow()).n);
const submitSteps = async () =>
  Number((await h.c.db.selectFrom('jobs').select((eb) => eb.fn.countAll().as('n')).where('kind', '=', SUBMIT_STEP_JOB.kind).executeTakeFirstOrThrow()).n);

describe("a MED's opening block goes through the admission", () => {
  it('no hold of its own: the admission posts it against the original (available -> blocked, med_block); no row, no step, no limit counted', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const rowsBefore = await count('transactions', account.id);
    const stepsBefore = await submitSteps();
    const holdOne = vi.spyOn(h.c.ledger, 'holdOne');
    try {
      const res = await openMed(token, { endToEndId: pix.endToEndId, cause: 'SCAM', description: 'golpe', amount: 40 });
      expect(res.statusCode, res.body).toBe(201);
      expect(holdOne).not.toHaveBeenCalled();
    } finally {
      holdOne.mockRestore();
    }
    expect(await centsOf(account.id)).toEqual({ available: 6_000, blocked: 4_000 });
    expect(await medBlockPostings(pix.id)).toEqual([
      { account_id: account.id, bucket: 'available', delta: -4_000 },
      { account_id: account.id, bucket: 'blocked', delta: 4_000 },
    ]);
    // Clients see no PENDING refund at opening: the block has no row; it writes no step and counts no limit.
    expect(await count('transactions', account.id)).toBe(rowsBefore);
    expect(await submitSteps()).toBe(stepsBefore);
    expect(await count('payout_limit_usage', account.id)).toBe(0);
  });

  it('blocks only what is available as the admission finds it: a pending cash-out took the rest; nothing available, nothing posted', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const spent = await h.api('POST', '/api/pix/cash-out', token, cashOutBody({ value: 75 }));
    expect(spent.statusCode, spent.body).toBe(201);
    const partial = await openMed(token, { endToEndId: pix.endToEndId, amount: 60 });
    expect(partial.statusCode, partial.body).toBe(201);
    const med = await h.c.db.selectFrom('meds').select(['blocked_amount', 'disputed_amount']).where('id', '=', partial.json().id).executeTakeFirstOrThrow();
    expect(med).toEqual({ blocked_amount: 2_500, disputed_amount: 6_000 });
    expect(await centsOf(account.id)).toEqual({ available: 0, blocked: 10_000 });

    const nothing = await openMed(token, { endToEndId: pix.endToEndId, amount: 10 });
    expect(nothing.statusCode, nothing.body).toBe(201);
    const second = await h.c.db.selectFrom('meds').select('blocked_amount').where('id', '=', nothing.json().id).executeTakeFirstOrThrow();
    expect(second.blocked_amount).toBe(0);
    expect(await medBlockPostings(pix.id)).toEqual([
      { account_id: account.id, bucket: 'available', delta: -2_500 },
      { account_id: account.id, bucket: 'blocked', delta: 2_500 },
    ]);
    // Rejected, the first MED releases exactly what it blocked; the second had nothing to release.
    for (const id of [partial.json().id, nothing.json().id]) {
      expect((await h.api('POST', `/sandbox/med/${id}/transition`, token, { to: 'CANCELLED' })).statusCode).toBe(200);
    }
    expect(await centsOf(account.id)).toEqual({ available: 2_500, blocked: 7_500 });
  });

  it("a suspended account: the network's MED still blocks (not the account's own action), by the admin and by the account's token; its payouts stay refused", async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    expect((await h.admin('POST', `/admin/accounts/${account.id}/suspend`)).statusCode).toBe(200);
    const cashOut = await h.api('POST', '/api/pix/cash-out', token, cashOutBody({ value: 5 }));
    expect([cashOut.statusCode, cashOut.json().code]).toEqual([403, 'ACCOUNT_SUSPENDED']);

    const byAdmin = await h.admin('POST', '/sandbox/med', { accountId: account.id, endToEndId: pix.endToEndId, amount: 30 });
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
    expect(await centsOf(account.id)).toEqual({ available: 7_000, blocked: 3_000 });
    const byToken = await openMed(token, { endToEndId: pix.endToEndId, amount: 20 });
    expect(byToken.statusCode, byToken.body).toBe(201);
    expect(await centsOf(account.id)).toEqual({ available: 5_000, blocked: 5_000 });
    // Approved while suspended, the MED's return (origin med, not stopped by a suspension) goes out.
    for (const to of ['RECEIVED', 'ANALYZED']) {
      const moved = await h.admin('POST', `/sandbox/med/${byAdmin.json().id}/transition`, { accountId: account.id, to, ...(to === 'ANALYZED' ? { analysisResult: 'APPROVED' } : {}) });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    expect(await centsOf(account.id)).toEqual({ available: 5_000, blocked: 2_000 });
  });
});

describe('the block item of the admission (payouts.blockIn)', () => {
  it('holds min(asked, available) under the lock and answers it; 0 asked is 0 held; an account that does not exist is NOT_FOUND', async () => {
    const { account, pix } = await accountWithReceivedPix(h, 50);
    const block = (accountId: number, amount: number) =>
      h.c.db.transaction().execute((trx) => h.c.payouts.payouts.blockIn(trx, { origin: 'med_block', accountId, amount: cents(amount), transactionId: pix.id }));
    expect(await block(account.id, 0)).toBe(0);
    expect(await block(account.id, 2_000)).toBe(2_000);
    expect(await block(account.id, 9_000)).toBe(3_000);
    expect(await block(account.id, 100)).toBe(0);
    expect(await centsOf(account.id)).toEqual({ available: 0, blocked: 5_000 });
    expect((await medBlockPostings(pix.id)).map((p) => p.delta)).toEqual([-2_000, 2_000, -3_000, 3_000]);
    const missing = await block(987_654_321, 100).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(DomainError);
    expect((missing as DomainError).code).toBe('NOT_FOUND');
    // Give the money back, so the suite's ledger check sees an account as a MED would leave it.
    await h.c.db.transaction().execute((trx) =>
      h.c.ledger.releaseOne(trx, { accountId: account.id, amount: cents(5_000), transactionId: pix.id, reason: 'med_release' }),
    );
    expect(await centsOf(account.id)).toEqual({ available: 5_000, blocked: 0 });
  });
});
