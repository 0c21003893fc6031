import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody } from '../payouts/helpers.ts';

let h: Harness;
let account: { id: number; pixKey: string };
let token: string;
let seq = 0;

beforeAll(async () => {
  h = await startHarness();
  account = await h.createAccount({ name: 'Marketplace' });
  token = await h.tokenFor(account.id);
});
afterAll(() => h.close());

type Split = { pixKey: string; pixKeyType: string; name: string; document: string; type: 'FIXED' | 'PERCENTAGE'; value: number; immediate?: boolean };
const external = (i: number, over: Partial<Split> = {}): Split => ({
  pixKey: `recebedor${i}@loja.example`,
  pixKeyType: 'EMAIL',
  name: `Recebedor ${i}`,
  document: cpf(900 + i),
  type: 'FIXED',
  value: 10,
  ...over,
});

async function chargeWithSplits(value: number, splits: Split[]) {
  seq += 1;
  const res = await h.api(
    'POST',
    '/api/pix/cash-in',
    token,
    { transaction: { value, description: 'Venda', externalId: `split-${seq}` }, payer: { fullName: 'Cliente', document: cpf(1) }, splits },
    { 'x-sandbox-scenario': 'pending' },
  );
  return res;
}
const payoutsOf = async (transactionId: string) => {
  const parent = await h.c.db.selectFrom('transactions').select('id').where('transaction_id', '=', transactionId).executeTakeFirstOrThrow();
  return h.c.db.selectFrom('transactions').selectAll().where('parent_id', '=', parent.id).where('origin', '=', 'split').orderBy('id').execute();
};

describe('cash-in splits', () => {
  it('refuses splits whose sum exceeds the amount, bad keys and bad documents', async () => {
    const over = await chargeWithSplits(100, [external(1, { value: 60 }), external(2, { type: 'PERCENTAGE', value: 41 })]);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toEqual(['splits must not add up to more than transaction.value']);
    expect((await chargeWithSplits(100, [external(1, { value: 60 }), external(2, { type: 'PERCENTAGE', value: 40 })])).statusCode).toBe(201);
    const badKey = await chargeWithSplits(100, [external(1, { pixKeyType: 'CPF', pixKey: 'x@y.example' })]);
    expect(badKey.json().message).toEqual(['splits[0].pixKey is not a valid CPF key']);
    const badDoc = await chargeWithSplits(100, [external(1, { document: '11111111111' })]);
    expect(badDoc.json().message).toEqual(['splits[0].document must be a valid CPF (11 digits) or CNPJ (14 characters)']);
    expect((await chargeWithSplits(100, Array.from({ length: 11 }, (_, i) => external(i, { value: 1 })))).statusCode).toBe(400);
    expect((await chargeWithSplits(100, [external(1, { type: 'PERCENTAGE', value: 100.5 })])).statusCode).toBe(400);
    expect((await chargeWithSplits(100, [external(1, { value: 1.005 })])).statusCode).toBe(400);
    // Percentages may be finer than amounts: up to 4 decimals (only FIXED is limited to 2).
    expect((await chargeWithSplits(100, [external(1, { type: 'PERCENTAGE', value: 33.3333 })])).statusCode).toBe(201);
    const tooFine = await chargeWithSplits(100, [external(1, { type: 'PERCENTAGE', value: 33.33333 })]);
    expect(tooFine.statusCode).toBe(400);
    expect(tooFine.json().message).toEqual(['splits[0].value must be a percentage up to 100 with at most 4 decimal places']);
  });

  it('pays immediate splits right after payment as payouts with CashOut events, on-us to a key of ours; the remainder stays', async () => {
    const receiver = await h.createAccount();
    const created = (
      await chargeWithSplits(200, [
        external(1, { value: 15.5, immediate: true }),
        // The holder's own document: an on-us split is checked like any payout (the next test).
        { pixKey: receiver.pixKey, pixKeyType: 'RANDOM', name: 'Parceiro', document: receiver.document, type: 'PERCENTAGE', value: 12.5, immediate: true },
      ])
    ).json();
    const before = await h.balance(account.id);
    expect((await h.api('POST', `/sandbox/charges/${created.transactionId}/pay`, token, {})).statusCode).toBe(200);
    await h.runJobs();
    let payouts = await payoutsOf(created.transactionId);
    expect(payouts.map((p) => [p.kind, p.original_amount])).toEqual([
      ['WITHDRAW', 1550],
      ['WITHDRAW', 2500],
    ]);
    // On-us settles at once and credits the receiver; the external one waits for the network.
    expect(payouts[1]!.status).toBe('CONFIRMED');
    expect(await h.balance(receiver.id)).toEqual({ available: 25, blocked: 0 });
    expect(payouts[0]!.status).toBe('PENDING');
    expect(await h.balance(account.id)).toEqual({ available: before.available + 200 - 15.5 - 25, blocked: 15.5 });
    await h.advance(1);
    payouts = await payoutsOf(created.transactionId);
    expect(payouts[0]!.status).toBe('CONFIRMED');
    expect(await h.balance(account.id)).toEqual({ available: before.available + 200 - 15.5 - 25, blocked: 0 });
    for (const payout of payouts) {
      const event = await h.c.db.selectFrom('events').selectAll().where('transaction_id', '=', payout.id).executeTakeFirstOrThrow();
      expect(event.type).toBe('cash_out');
      expect(event.payload).toMatchObject({ event: 'CashOut', status: 'CONFIRMED', movementType: 'DEBIT', originalAmount: payout.original_amount / 100 });
    }
  });

  it('an on-us split to a key whose holder has another document is rejected like a payout (TAX_ID_MISMATCH): nothing credited, the money stays', async () => {
    const receiver = await h.createAccount();
    const created = (
      await chargeWithSplits(40, [{ pixKey: receiver.pixKey, pixKeyType: 'RANDOM', name: 'Parceiro', document: cpf(77), type: 'FIXED', value: 10, immediate: true }])
    ).json();
    const before = await h.balance(account.id);
    expect((await h.api('POST', `/sandbox/charges/${created.transactionId}/pay`, token, {})).statusCode).toBe(200);
    await h.runJobs();
    const [payout] = await payoutsOf(created.transactionId);
    expect(payout).toMatchObject({ kind: 'WITHDRAW', status: 'ERROR', error_code: 'TAX_ID_MISMATCH', original_amount: 1000 });
    expect(await h.balance(receiver.id)).toEqual({ available: 0, blocked: 0 });
    expect(await h.balance(account.id)).toEqual({ available: before.available + 40, blocked: 0 });
    const event = await h.c.db.selectFrom('events').selectAll().where('transaction_id', '=', payout!.id).executeTakeFirstOrThrow();
    expect(event.payload).toMatchObject({ event: 'CashOut', status: 'ERROR', errorCode: 'TAX_ID_MISMATCH' });
    // A cash-out to the same key naming the same wrong document ends the same way.
    const cashOut = await h.api('POST', '/api/pix/cash-out', token, {
      value: 10,
      details: { key: receiver.pixKey, keyType: 'RANDOM', name: 'Parceiro', document: cpf(77) },
      externalId: `tax-${seq}`,
    });
    expect(cashOut.statusCode, cashOut.body).toBe(201);
    const row = await h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', cashOut.json().transactionId).executeTakeFirstOrThrow();
    expect([row.status, row.error_code]).toEqual(['ERROR', 'TAX_ID_MISMATCH']);
    expect(await h.balance(receiver.id)).toEqual({ available: 0, blocked: 0 });
  });

  it('a split share the balance no longer covers is kept as ERROR (INSUFFICIENT_FUNDS) with its CashOut event; nothing moves', async () => {
    const created = (await chargeWithSplits(30, [external(5, { value: 10, immediate: true })])).json();
    expect((await h.api('POST', `/sandbox/charges/${created.transactionId}/pay`, token, {})).statusCode).toBe(200);
    // The account spends everything before the split job runs.
    const { available } = await h.balance(account.id);
    const spent = await h.api('POST', '/api/pix/cash-out', token, cashOutBody({ value: available }));
    expect(spent.statusCode, spent.body).toBe(201);
    const after = await h.balance(account.id);
    expect(after.available).toBe(0);
    await h.runJobs();
    const [payout] = await payoutsOf(created.transactionId);
    expect(payout).toMatchObject({ status: 'ERROR', error_code: 'INSUFFICIENT_FUNDS', original_amount: 1000, fee_amount: 0 });
    expect((await h.balance(account.id)).available).toBe(0);
    const event = await h.c.db.selectFrom('events').selectAll().where('transaction_id', '=', payout!.id).executeTakeFirstOrThrow();
    expect(event.payload).toMatchObject({ event: 'CashOut', status: 'ERROR', errorCode: 'INSUFFICIENT_FUNDS' });
    expect(await h.c.db.selectFrom('postings').select('id').where('transaction_id', '=', payout!.id).execute()).toEqual([]);
  });

  it('pays non-immediate splits at the next 00:00 in São Paulo (daily by default), once', async () => {
    const created = (await chargeWithSplits(50, [external(3, { value: 5 })])).json();
    await h.api('POST', `/sandbox/charges/${created.transactionId}/pay`, token, {});
    await h.runJobs();
    expect(await payoutsOf(created.transactionId)).toEqual([]);
    const now = h.c.clock.now();
    // São Paulo is UTC-3 all year: local midnight is 03:00 UTC.
    const midnight = new Date(now);
    midnight.setUTCHours(3, 0, 0, 0);
    if (midnight <= now) midnight.setUTCDate(midnight.getUTCDate() + 1);
    await h.advance((midnight.getTime() - now.getTime()) / 1000 - 1);
    expect(await payoutsOf(created.transactionId)).toEqual([]);
    await h.advance(1);
    expect((await payoutsOf(created.transactionId)).map((p) => p.original_amount)).toEqual([500]);
    await h.advance(3600);
    expect((await payoutsOf(created.transactionId)).map((p) => [p.original_amount, p.status])).toEqual([[500, 'CONFIRMED']]);
  });

  it('follows the split frequency the operator sets (HOURLY: at the next full hour)', async () => {
    const other = await h.createAccount({ name: 'Hourly Shop' });
    const otherToken = await h.tokenFor(other.id);
    const set = await h.admin('PATCH', `/admin/accounts/${other.id}/split-frequency`, { frequency: 'HOURLY' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ frequency: 'HOURLY' });
    expect((await h.admin('GET', `/admin/accounts/${other.id}`)).json().splitFrequency).toBe('HOURLY');
    expect((await h.admin('PATCH', `/admin/accounts/${other.id}/split-frequency`, { frequency: 'WEEKLY' })).statusCode).toBe(400);
    const created = (
      await h.api(
        'POST',
        '/api/pix/cash-in',
        otherToken,
        { transaction: { value: 20, description: 'Venda', externalId: 'hourly-1' }, payer: { fullName: 'Cliente', document: cpf(1) }, splits: [external(4, { value: 2 })] },
        { 'x-sandbox-scenario': 'pending' },
      )
    ).json();
    await h.api('POST', `/sandbox/charges/${created.transactionId}/pay`, otherToken, {});
    await h.runJobs();
    expect(await payoutsOf(created.transactionId)).toEqual([]);
    const now = h.c.clock.now();
    const nextHour = Math.floor(now.getTime() / 3_600_000) * 3_600_000 + 3_600_000;
    await h.advance((nextHour - now.getTime()) / 1000);
    expect((await payoutsOf(created.transactionId)).map((p) => p.original_amount)).toEqual([200]);
  });

  it('property: each payout is its split share (fixed exact, percentage rounded down), shares plus what stays equal the credited amount', async () => {
    token = await h.tokenFor(account.id); // the clock moved past the first token's lifetime
    // Splits that always fit the amount (at most 4, each at most a quarter), so every run pays them.
    const fitting = fc.integer({ min: 4, max: 100_000 }).chain((amountCents) =>
      fc.tuple(
        fc.constant(amountCents),
        fc.array(
          fc.oneof(
            fc.record({ fixed: fc.constant(true), n: fc.integer({ min: 1, max: Math.floor(amountCents / 4) }) }),
            fc.record({ fixed: fc.constant(false), n: fc.integer({ min: 1, max: 2500 }) }), // n/100 percent, up to 25%
          ),
          { minLength: 1, maxLength: 4 },
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fitting, async ([amountCents, raw]) => {
        const splits = raw.map((r, i) => external(10 + i, { type: r.fixed ? 'FIXED' : 'PERCENTAGE', value: r.n / 100, immediate: true }));
        const res = await chargeWithSplits(amountCents / 100, splits);
        expect(res.statusCode).toBe(201);
        const before = await h.balance(account.id);
        const pay = await h.api('POST', `/sandbox/charges/${res.json().transactionId}/pay`, token, {});
        expect(pay.statusCode).toBe(200);
        await h.runJobs();
        // n/100 percent is n * 100 parts per million of the gross amount, rounded down to the cent.
        const expected = raw.map((r) => (r.fixed ? r.n : Math.floor((amountCents * r.n * 100) / 1_000_000))).filter((share) => share > 0);
        const payouts = await payoutsOf(res.json().transactionId);
        expect(payouts.map((p) => p.original_amount)).toEqual(expected);
        const shares = expected.reduce((sum, share) => sum + share, 0);
        const after = await h.balance(account.id);
        // What stays is what reached `available`; the shares are held on their way out.
        const stayed = Math.round((after.available - before.available) * 100);
        expect(stayed).toBeGreaterThanOrEqual(0);
        expect(stayed + shares).toBe(Math.round(pay.json().finalAmount * 100));
        expect(Math.round((after.blocked - before.blocked) * 100)).toBe(shares);
      }),
      { numRuns: 20 },
    );
  });

  it('property: splits are refused exactly when their unrounded sum exceeds the amount', async () => {
    token = await h.tokenFor(account.id);
    let refused = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(fc.record({ fixed: fc.boolean(), n: fc.integer({ min: 1, max: 5000 }) }), { minLength: 1, maxLength: 4 }),
        async (amountCents, raw) => {
          const splits = raw.map((r) => external(20, { type: r.fixed ? 'FIXED' : 'PERCENTAGE', value: r.n / 100 }));
          const exact = raw.reduce((sum, r) => sum + (r.fixed ? r.n * 10_000 : amountCents * r.n), 0);
          const res = await chargeWithSplits(amountCents / 100, splits.map((sp, i) => ({ ...sp, pixKey: `recebedor${20 + i}@loja.example` })));
          if (exact > amountCents * 10_000) {
            refused += 1;
            expect(res.statusCode).toBe(400);
            expect(res.json().message).toEqual(['splits must not add up to more than transaction.value']);
          } else {
            accepted += 1;
            expect(res.statusCode).toBe(201);
          }
        },
      ),
      // Fixed examples of both sides, so neither branch can go untested whatever is generated.
      { numRuns: 30, examples: [[100, [{ fixed: true, n: 101 }]], [100, [{ fixed: true, n: 100 }]], [1, [{ fixed: false, n: 5000 }, { fixed: false, n: 5001 }]]] },
    );
    expect(refused).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
  });
});
