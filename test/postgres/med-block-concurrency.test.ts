import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, findLedgerDrift } from '../../src/ledger/ledger.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody } from '../payouts/helpers.ts';
import { accountWithReceivedPix } from '../refunds/refund-helpers.ts';

/**
 * Issue 28 item 5: a MED's opening block goes through the one debit admission, so it and the
 * account's cash-outs are decided under one lock, in one order, against one balance. On real
 * PostgreSQL, a MED opened while cash-outs of the same account run: the balance never goes below
 * zero, what was blocked and what was spent add up, the block is exactly what the admission found
 * available (all it asked, or everything left), and the ledger balances.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ROUNDS = 6;
const CASH_OUTS = 8;

describe('a MED opened while cash-outs of the same account run (real PostgreSQL)', () => {
  it('the block is clamped to what is available under the lock; blocked + spent = what the account had; the ledger balances', async () => {
    expect(h.c.database.engine).toBe('postgres');
    for (let round = 0; round < ROUNDS; round++) {
      const { account, pix, token } = await accountWithReceivedPix(h, 100);
      // 8 cash-outs of 15.00 over 100.00 (six fit), and a MED asking for the whole PIX (or 70.00), all
      // at once; the MED is sent after a different number of the cash-outs each round.
      const sendMedAfter = (round * 3) % (CASH_OUTS + 1);
      const sent: Array<ReturnType<typeof h.api>> = [];
      let opened: ReturnType<typeof h.api> | undefined;
      for (let k = 0; k <= CASH_OUTS; k++) {
        if (k === sendMedAfter) opened = h.api('POST', '/sandbox/med', token, { endToEndId: pix.endToEndId, cause: 'SCAM', ...(round % 2 === 0 ? {} : { amount: 70 }) });
        if (k < CASH_OUTS) sent.push(h.api('POST', '/api/pix/cash-out', token, cashOutBody({ value: 15 })));
      }
      const [med, ...answers] = await Promise.all([opened!, ...sent]);
      expect(med.statusCode, med.body).toBe(201);
      const asked = round % 2 === 0 ? 10_000 : 7_000;
      for (const answer of answers) {
        expect([201, 400], answer.body).toContain(answer.statusCode);
        if (answer.statusCode === 400) expect(answer.json().code).toBe('PIX_INSUFFICIENT_BALANCE');
      }
      const { blocked_amount: blocked } = await h.c.db.selectFrom('meds').select('blocked_amount').where('id', '=', med.json().id).executeTakeFirstOrThrow();
      const pending = await h.c.db
        .selectFrom('transactions')
        .select(['final_amount', 'status'])
        .where('account_id', '=', account.id)
        .where('kind', '=', 'WITHDRAW')
        .execute();
      expect(pending.map((t) => t.status)).toEqual(Array.from({ length: answers.filter((a) => a.statusCode === 201).length }, () => 'PENDING'));
      const spent = pending.reduce((sum, t) => sum + t.final_amount, 0);
      const balance = await h.c.db.selectFrom('accounts').select(['available', 'blocked']).where('id', '=', account.id).executeTakeFirstOrThrow();
      expect(balance.available).toBeGreaterThanOrEqual(0);
      // Nothing settled yet (the clock stands still): what the account had is available, blocked by the MED, or held by a cash-out.
      expect(balance.available + blocked + spent).toBe(10_000);
      expect(balance.blocked).toBe(blocked + spent);
      // Exact under concurrency: the MED blocked all it asked, or everything that was left when the
      // admission locked the account (the cash-outs after it then found nothing to spend).
      expect(blocked <= asked && (blocked === asked || balance.available === 0), `blocked ${blocked} of ${asked}, available ${balance.available}`).toBe(true);
      // A refused cash-out did not fit in what was left at its turn, and nothing was credited since.
      if (answers.some((a) => a.statusCode === 400)) expect(balance.available).toBeLessThan(1_500);
      // The block is the posted hold the MED's return and release work from.
      const postings = await h.c.db.selectFrom('postings').select(['bucket', 'delta']).where('transaction_id', '=', pix.id).where('reason', '=', 'med_block').orderBy('id').execute();
      expect(postings).toEqual(blocked === 0 ? [] : [{ bucket: 'available', delta: -blocked }, { bucket: 'blocked', delta: blocked }]);
    }
    // Settled, the cash-outs leave; cancelled, the MEDs give back exactly what they blocked.
    await h.advance(5);
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
    expect((await checkLedger(h.c.db)).ok).toBe(true);
  });

  it('a MED approved after a race returns exactly its block, and one cancelled releases it: balances and ledger stay exact', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const [med, ...answers] = await Promise.all([
      h.api('POST', '/sandbox/med', token, { endToEndId: pix.endToEndId, amount: 50 }),
      ...Array.from({ length: 4 }, () => h.api('POST', '/api/pix/cash-out', token, cashOutBody({ value: 20 }))),
    ]);
    expect(med!.statusCode, med!.body).toBe(201);
    const { blocked_amount: blocked } = await h.c.db.selectFrom('meds').select('blocked_amount').where('id', '=', med!.json().id).executeTakeFirstOrThrow();
    const spent = answers.filter((a) => a.statusCode === 201).length * 2_000;
    expect(blocked + spent).toBeLessThanOrEqual(10_000);
    for (const to of ['RECEIVED', 'ANALYZED']) {
      const moved = await h.api('POST', `/sandbox/med/${med!.json().id}/transition`, token, { to, ...(to === 'ANALYZED' ? { analysisResult: 'APPROVED' } : {}) });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    await h.advance(5);
    const balance = await h.c.db.selectFrom('accounts').select(['available', 'blocked']).where('id', '=', account.id).executeTakeFirstOrThrow();
    expect(balance).toEqual({ available: 10_000 - blocked - spent, blocked: 0 });
    const original = await h.c.db.selectFrom('transactions').select('refunded_amount').where('id', '=', pix.id).executeTakeFirstOrThrow();
    expect(original.refunded_amount).toBe(blocked);
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
    expect((await checkLedger(h.c.db)).ok).toBe(true);
  });
});
