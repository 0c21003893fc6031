import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fn } from '../../src/db/function-sources.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from '../payouts/helpers.ts';

/**
 * Issue 22 item 2: one fee function for every origin, pix_fee (src/db/functions/pix_fee.sql).
 * Decisions 4.8: a fixed BRL part plus a percent of the amount, rounded half-up to the cent;
 * debits finalAmount = original + fee, credits original - fee; PIX_INVALID_AMOUNT when a fee leaves
 * nothing to pay. Refunds carry no fee (docs/decisions.md).
 *
 * The expectation is written here on its own, digit by digit as a person rounds: the percent part's
 * whole cents, plus one when the remainder is half a cent or more.
 */
function expectedFee(amount: number, fee: FeeSetting): number {
  const product = BigInt(amount) * BigInt(fee.bp);
  const whole = product / 10_000n;
  const halfOrMore = product % 10_000n >= 5_000n ? 1n : 0n;
  return Number(BigInt(fee.fixed) + whole + halfOrMore);
}

interface FeeSetting {
  /** cents */
  fixed: number;
  /** basis points: 150 is 1.5% */
  bp: number;
}

/** Mostly small fees, sometimes up to 100% and R$ 50: both sides of "leaves nothing to pay". */
const feeSetting: fc.Arbitrary<FeeSetting> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ fixed: fc.integer({ min: 0, max: 500 }), bp: fc.integer({ min: 0, max: 500 }) }) },
  { weight: 1, arbitrary: fc.record({ fixed: fc.integer({ min: 0, max: 5_000 }), bp: fc.integer({ min: 0, max: 10_000 }) }) },
  { weight: 1, arbitrary: fc.record({ fixed: fc.constant(0), bp: fc.constantFrom(0, 1, 50, 150, 4_999, 5_000, 9_999, 10_000) }) },
);
/** Amounts in cents, with the ones where half-up rounding decides (333 at 1.5% is 4.995). */
const amount = (max: number) => fc.oneof(fc.integer({ min: 1, max }), fc.constantFrom(1, 3, 99, 100, 333, 1_001, 99_999));

const brl = (c: number) => c / 100;
const asSetting = (f: FeeSetting) => ({ fixed: brl(f.fixed), percent: f.bp / 100 });

describe('pix_fee, the one fee function, against the expectation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  /** pix_fee of many (amount, fixed, bp) at once: one query. */
  async function pixFees(cases: Array<{ amount: number; fee: FeeSetting }>): Promise<number[]> {
    const rows = await sql<{ fee: number }>`
      SELECT ${fn('pix_fee')}((c.x->>'amount')::bigint, (c.x->>'fixed')::bigint, (c.x->>'bp')::int) AS fee
        FROM jsonb_array_elements(${JSON.stringify(cases.map((c) => ({ amount: String(c.amount), fixed: String(c.fee.fixed), bp: c.fee.bp })))}::jsonb)
             WITH ORDINALITY AS c (x, o)
       ORDER BY c.o`.execute(h.c.db);
    return rows.rows.map((r) => Number(r.fee));
  }

  it.each<[number, number, number, number]>([
    [10_000, 0, 0, 0],
    [10_000, 50, 0, 50],
    [10_000, 0, 150, 150], // 1.5% of 100.00
    [10_000, 50, 150, 200],
    [333, 10, 150, 15], // 10 + round(4.995)
    [333, 0, 150, 5], // 4.995 -> 5
    [332, 0, 150, 5], // 4.98 -> 5
    [100, 0, 49, 0], // 0.49 -> 0
    [100, 0, 50, 1], // 0.5 -> 1
    [1, 0, 5_000, 1], // 0.005 BRL -> half-up -> 0.01
    [1, 0, 4_999, 0],
    [3, 0, 5_000, 2], // 1.5 -> 2
    [0, 0, 10_000, 0],
    [99_999_999_999, 0, 10_000, 99_999_999_999],
    [Number.MAX_SAFE_INTEGER, 0, 1, 900_719_925_474], // a product far above 2^53, exact
  ])('amount %s cents, fixed %s, %s bp -> %s', async (amountCents, fixed, bp, fee) => {
    expect(await pixFees([{ amount: amountCents, fee: { fixed, bp } }])).toEqual([fee]);
    expect(expectedFee(amountCents, { fixed, bp })).toBe(fee);
  });

  it('answers NULL out of its domain (no caller can store it): a negative amount, settings the accounts table refuses', async () => {
    const rows = await sql<{ a: number | null; b: number | null; c: number | null }>`
      SELECT ${fn('pix_fee')}(-1, 0, 100) AS a, ${fn('pix_fee')}(100, -1, 0) AS b, ${fn('pix_fee')}(100, 0, 10001) AS c`.execute(h.c.db);
    expect(rows.rows[0]).toEqual({ a: null, b: null, c: null });
  });

  it('property: equals the expectation over the whole range of amounts and fee settings', async () => {
    const cases = fc.array(fc.record({ amount: fc.integer({ min: 0, max: 99_999_999_999 }), fee: fc.record({ fixed: fc.integer({ min: 0, max: 99_999_999_999 }), bp: fc.integer({ min: 0, max: 10_000 }) }) }), { minLength: 1, maxLength: 400 });
    await fc.assert(
      fc.asyncProperty(cases, async (batch) => {
        expect(await pixFees(batch)).toEqual(batch.map((c) => expectedFee(c.amount, c.fee)));
      }),
      { numRuns: 40 },
    );
  });
});

describe('stored fee_amount of real cash-ins, cash-outs and refunds through the HTTP API (property)', () => {
  let h: Harness;
  let account: Awaited<ReturnType<typeof payer>>;
  let receiver: { id: number; pixKey: string; document: string };
  beforeAll(async () => {
    h = await startHarness();
    // A company (limits of 100,000.00 a payout, 1,000,000.00 a day) funded before any fee is set.
    account = await payer(h, 5_000_000, { type: 'COMPANY' });
    receiver = await h.createAccount({ name: 'Recebedora', document: cpf(424242) });
  });
  afterAll(() => h.close());

  const row = (transactionId: string) =>
    h.c.db.selectFrom('transactions').select(['original_amount', 'fee_amount', 'final_amount', 'status', 'end_to_end_id']).where('transaction_id', '=', transactionId).executeTakeFirstOrThrow();

  it('every origin stores the fee pix_fee gives, and refuses with PIX_INVALID_AMOUNT exactly when a credit fee leaves nothing', async () => {
    const seen = { deposit: 0, depositRefused: 0, charge: 0, chargeRefused: 0, cashOut: 0, onUs: 0, onUsRefused: 0, refund: 0 };
    const scenario = fc.record({
      inFee: feeSetting,
      outFee: feeSetting,
      receiverInFee: feeSetting,
      depositAmount: amount(10_000_000),
      chargeAmount: amount(10_000_000),
      cashOutAmount: amount(1_000_000),
      onUsAmount: amount(500_000),
      refundShare: fc.integer({ min: 1, max: 100 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        expect((await h.admin('PATCH', `/admin/accounts/${account.id}/fees`, { cashIn: asSetting(s.inFee), cashOut: asSetting(s.outFee) })).statusCode).toBe(200);
        expect((await h.admin('PATCH', `/admin/accounts/${receiver.id}/fees`, { cashIn: asSetting(s.receiverInFee) })).statusCode).toBe(200);
        const received: Array<{ transactionId: string; amount: number }> = [];

        // A PIX received (sandbox deposit): the cash-in fee, credited net.
        const depositFee = expectedFee(s.depositAmount, s.inFee);
        const deposit = await h.admin('POST', '/sandbox/deposits', { accountId: account.id, amount: brl(s.depositAmount) });
        if (depositFee >= s.depositAmount) {
          // The sandbox family's short error format: the message says which rule.
          expect(deposit.statusCode).toBe(400);
          expect(deposit.json().message).toBe("The receiver's cash-in fee leaves nothing to credit");
          seen.depositRefused += 1;
        } else {
          expect(deposit.statusCode).toBe(201);
          const stored = await row(deposit.json().transactionId);
          expect(stored).toMatchObject({ original_amount: s.depositAmount, fee_amount: depositFee, final_amount: s.depositAmount - depositFee });
          received.push({ transactionId: deposit.json().transactionId, amount: s.depositAmount });
          seen.deposit += 1;
        }

        // A charge (cash-in) paid by the simulated payer: the cash-in fee, checked at creation too.
        const chargeFee = expectedFee(s.chargeAmount, s.inFee);
        const charge = await h.api('POST', '/api/pix/cash-in', account.token, {
          transaction: { value: brl(s.chargeAmount), description: 'Pedido', externalId: `fee-${Date.now()}-${Math.random()}` },
          payer: { fullName: 'João Pagador', document: cpf(1234) },
        });
        if (chargeFee >= s.chargeAmount) {
          expect(charge.statusCode).toBe(400);
          expect(charge.json().code).toBe('PIX_INVALID_AMOUNT');
          seen.chargeRefused += 1;
        } else {
          expect(charge.statusCode).toBe(201);
          expect((await h.api('POST', `/sandbox/charges/${charge.json().transactionId}/pay`, account.token, {})).statusCode).toBe(200);
          const stored = await row(charge.json().transactionId);
          expect(stored).toMatchObject({ status: 'CONFIRMED', original_amount: s.chargeAmount, fee_amount: chargeFee, final_amount: s.chargeAmount - chargeFee });
          received.push({ transactionId: charge.json().transactionId, amount: s.chargeAmount });
          seen.charge += 1;
        }

        // A cash-out to another bank (the group-commit admission, admit_payouts): the cash-out fee on top.
        const cashOutFee = expectedFee(s.cashOutAmount, s.outFee);
        const out = await h.api('POST', '/api/pix/cash-out', account.token, cashOutBody({ value: brl(s.cashOutAmount) }));
        expect(out.statusCode).toBe(201);
        expect(await row(out.json().transactionId)).toMatchObject({ original_amount: s.cashOutAmount, fee_amount: cashOutFee, final_amount: s.cashOutAmount + cashOutFee });
        seen.cashOut += 1;

        // An on-us cash-out (the single path): the payer's cash-out fee, the receiver's cash-in fee;
        // a receiver's fee that leaves nothing refuses the whole payout.
        const onUsOutFee = expectedFee(s.onUsAmount, s.outFee);
        const onUsInFee = expectedFee(s.onUsAmount, s.receiverInFee);
        const onUs = await h.api('POST', '/api/pix/cash-out', account.token, cashOutBody({ value: brl(s.onUsAmount) }, { key: receiver.pixKey, keyType: 'RANDOM', document: receiver.document }));
        if (onUsInFee >= s.onUsAmount) {
          expect(onUs.statusCode).toBe(400);
          expect(onUs.json().code).toBe('PIX_INVALID_AMOUNT');
          seen.onUsRefused += 1;
        } else {
          expect(onUs.statusCode).toBe(201);
          const paid = await row(onUs.json().transactionId);
          expect(paid).toMatchObject({ status: 'CONFIRMED', original_amount: s.onUsAmount, fee_amount: onUsOutFee, final_amount: s.onUsAmount + onUsOutFee });
          const credited = await h.c.db.selectFrom('transactions').select(['original_amount', 'fee_amount', 'final_amount'])
            .where('account_id', '=', receiver.id).where('end_to_end_id', '=', paid.end_to_end_id!).executeTakeFirstOrThrow();
          expect(credited).toEqual({ original_amount: s.onUsAmount, fee_amount: onUsInFee, final_amount: s.onUsAmount - onUsInFee });
          seen.onUs += 1;
        }

        // A refund of a received PIX: no fee, whatever the settings; the payer gets back the refund.
        const original = received[s.refundShare % Math.max(received.length, 1)];
        if (original) {
          const refundAmount = Math.max(1, Math.floor((original.amount * s.refundShare) / 100));
          const refund = await h.api('POST', `/api/pix/refund-in/${original.transactionId}`, account.token, { refundValue: brl(refundAmount) });
          expect(refund.statusCode).toBe(201);
          expect(await row(refund.json().transactionId)).toMatchObject({ original_amount: refundAmount, fee_amount: 0, final_amount: refundAmount });
          seen.refund += 1;
        }
        expect(await h.c.checkLedger()).toMatchObject({ ok: true });
      }),
      {
        numRuns: 25,
        // Where half-up decides (4.995 -> 5), and a fee exactly equal to the amount on every credit.
        examples: [
          [{ inFee: { fixed: 10, bp: 150 }, outFee: { fixed: 10, bp: 150 }, receiverInFee: { fixed: 0, bp: 150 }, depositAmount: 333, chargeAmount: 333, cashOutAmount: 333, onUsAmount: 333, refundShare: 100 }],
          [{ inFee: { fixed: 333, bp: 0 }, outFee: { fixed: 0, bp: 10_000 }, receiverInFee: { fixed: 0, bp: 10_000 }, depositAmount: 333, chargeAmount: 333, cashOutAmount: 999, onUsAmount: 500, refundShare: 1 }],
        ],
      },
    );
    // Each branch was taken at least once (the examples make sure of it).
    for (const [branch, count] of Object.entries(seen)) expect(count, branch).toBeGreaterThan(0);
    // Many whole sequences on one database: seconds on a quiet machine, past the default 30 s on a
    // loaded one (seen at load 40). A bound for the machine, not a promise of the service.
  }, 120_000);
});
