import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuidV4 } from '../../src/domain/ids.ts';
import { cents } from '../../src/domain/money.ts';
import { admissionBlockItem, admissionItem, parseAdmissionAnswer } from '../../src/services/payouts/admission-wire.ts';
import { callAdmission } from '../../src/services/payouts/payout-admission.ts';
import { startHarness, type Harness } from '../harness.ts';
import { accountWithReceivedPix } from '../refunds/refund-helpers.ts';

/**
 * A block item (a MED's opening block) in admit_payouts: applied in arrival order with the debits of
 * its batch, against the one running balance kept under the account's lock, exactly as if each had
 * run alone one after the other. Each case runs in a transaction that is rolled back.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

class RolledBack extends Error {}

/** A refund-in of `amount` cents (no fee, no limits, no step) and a block of `asked` cents, in the given order, on one account of 100.00. */
async function batchOf(order: 'debit-first' | 'block-first', amount: number, asked: number) {
  const { account, pix } = await accountWithReceivedPix(h, 100);
  const debit = (idx: number) =>
    admissionItem('refund_in', {
      idx,
      accountId: account.id,
      receiverId: null,
      amount: cents(amount),
      job: null,
      tx: { transaction_id: newUuidV4(), family: 'api', external_id: null, end_to_end_id: null, parent_id: pix.id, pix_key: null, description: null, counterpart: {} as never, metadata: {}, scenario: null },
    });
  const block = (idx: number) => admissionBlockItem('med_block', { idx, accountId: account.id, amount: cents(asked), transactionId: pix.id });
  let seen: { answers: unknown[]; balance: unknown; postings: unknown[] } | undefined;
  await h.c.db
    .transaction()
    .execute(async (trx) => {
      const items = order === 'debit-first' ? [debit(0), block(1)] : [block(0), debit(1)];
      const { rows } = await callAdmission(trx, items, h.clock.now(), undefined);
      const answers = rows.map(parseAdmissionAnswer).map((a) => (a.outcome === 'admitted' ? { outcome: a.outcome, amount: a.tx.final_amount, status: a.tx.status } : a));
      const balance = await trx.selectFrom('accounts').select(['available', 'blocked']).where('id', '=', account.id).executeTakeFirstOrThrow();
      const postings = await trx.selectFrom('postings').select(['bucket', 'delta', 'reason']).where('transaction_id', '=', pix.id).where('reason', '=', 'med_block').orderBy('id').execute();
      seen = { answers, balance, postings };
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return seen!;
}

describe('admit_payouts: a block item with debits of the same account, in arrival order', () => {
  it('a debit first: the block gets what is left (clamped), posted; the debit is held as any debit', async () => {
    const { answers, balance, postings } = await batchOf('debit-first', 6_000, 10_000);
    expect(answers).toEqual([
      { outcome: 'admitted', amount: 6_000, status: 'PENDING' },
      { outcome: 'blocked', amount: 4_000 },
    ]);
    expect(balance).toEqual({ available: 0, blocked: 10_000 });
    expect(postings).toEqual([
      { bucket: 'available', delta: -4_000, reason: 'med_block' },
      { bucket: 'blocked', delta: 4_000, reason: 'med_block' },
    ]);
  });

  it('the block first: it takes all it asks, and the debit it leaves uncovered is refused', async () => {
    const { answers, balance, postings } = await batchOf('block-first', 6_000, 10_000);
    expect(answers).toEqual([{ outcome: 'blocked', amount: 10_000 }, { outcome: 'INSUFFICIENT' }]);
    expect(balance).toEqual({ available: 0, blocked: 10_000 });
    expect(postings.map((p) => (p as { delta: number }).delta)).toEqual([-10_000, 10_000]);
  });

  it('nothing left for the block: it answers 0 and posts nothing', async () => {
    const { answers, balance, postings } = await batchOf('debit-first', 10_000, 3_000);
    expect(answers).toEqual([
      { outcome: 'admitted', amount: 10_000, status: 'PENDING' },
      { outcome: 'blocked', amount: 0 },
    ]);
    expect(balance).toEqual({ available: 0, blocked: 10_000 });
    expect(postings).toEqual([]);
  });
});
