import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '../../src/domain/money.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const c = (n: number) => n as Cents;

describe('ledger', () => {
  it('holds, settles, releases and credits, keeping postings equal to balances', async () => {
    const { id } = await h.createAccount();
    const { ledger } = h.c;
    await h.c.db.transaction().execute(async (trx) => {
      expect(await ledger.creditOne(trx, { accountId: id, amount: c(10_000), transactionId: null, reason: 'test' })).toEqual({ ok: true, available: 10_000, blocked: 0 });
      expect(await ledger.holdOne(trx, { accountId: id, amount: c(3_000), transactionId: null, reason: 'test' })).toEqual({ ok: true, available: 7_000, blocked: 3_000 });
      expect(await ledger.settleOne(trx, { accountId: id, amount: c(1_000), transactionId: null, reason: 'test' })).toEqual({ ok: true, available: 7_000, blocked: 2_000 });
      expect(await ledger.releaseOne(trx, { accountId: id, amount: c(2_000), transactionId: null, reason: 'test' })).toEqual({ ok: true, available: 9_000, blocked: 0 });
    });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('refuses a hold the available balance does not cover, and a settle or release beyond blocked', async () => {
    const { id } = await h.createAccount();
    const { ledger } = h.c;
    await ledger.creditOne(h.c.db, { accountId: id, amount: c(500), transactionId: null, reason: 'test' });
    const results = await ledger.hold(h.c.db, [
      { accountId: id, amount: c(400), transactionId: null, reason: 'a' },
      { accountId: id, amount: c(200), transactionId: null, reason: 'b' },
      { accountId: 999_999, amount: c(1), transactionId: null, reason: 'c' },
    ]);
    expect(results).toEqual([
      { ok: true, available: 100, blocked: 400 },
      { ok: false, error: 'INSUFFICIENT_FUNDS' },
      { ok: false, error: 'ACCOUNT_NOT_FOUND' },
    ]);
    expect(await ledger.settleOne(h.c.db, { accountId: id, amount: c(401), transactionId: null, reason: 'x' })).toEqual({ ok: false, error: 'INSUFFICIENT_BLOCKED' });
    expect(await ledger.releaseOne(h.c.db, { accountId: id, amount: c(401), transactionId: null, reason: 'x' })).toEqual({ ok: false, error: 'INSUFFICIENT_BLOCKED' });
    expect(await h.balance(id)).toEqual({ available: 1, blocked: 4 });
  });

  it('rejects non-integer or non-positive amounts before touching the database', async () => {
    const { id } = await h.createAccount();
    await expect(h.c.ledger.creditOne(h.c.db, { accountId: id, amount: c(1.5), transactionId: null, reason: 'x' })).rejects.toThrow(RangeError);
    await expect(h.c.ledger.holdOne(h.c.db, { accountId: id, amount: c(0), transactionId: null, reason: 'x' })).rejects.toThrow(RangeError);
  });

  it('property: any sequence of operations keeps balances non-negative and equal to the postings', async () => {
    const { id } = await h.createAccount();
    const op = fc.record({
      kind: fc.constantFrom('hold', 'settle', 'release', 'credit'),
      amount: fc.integer({ min: 1, max: 5_000 }),
    });
    let model = { available: 0, blocked: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        for (const { kind, amount } of ops) {
          const entry = { accountId: id, amount: c(amount), transactionId: null, reason: 'property' };
          const result = await h.c.ledger[`${kind as 'hold'}One`](h.c.db, entry);
          // The model says what must have happened.
          const next = { ...model };
          if (kind === 'credit') next.available += amount;
          if (kind === 'hold') (next.available -= amount), (next.blocked += amount);
          if (kind === 'settle') next.blocked -= amount;
          if (kind === 'release') (next.blocked -= amount), (next.available += amount);
          const allowed = next.available >= 0 && next.blocked >= 0;
          expect(result.ok).toBe(allowed);
          if (allowed) model = next;
        }
        const row = await h.c.db.selectFrom('accounts').select(['available', 'blocked']).where('id', '=', id).executeTakeFirstOrThrow();
        expect(row).toEqual(model);
        expect(await findLedgerDrift(h.c.db)).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it('the database itself refuses a negative balance (CHECK constraint)', async () => {
    const { id } = await h.createAccount();
    await expect(h.c.db.updateTable('accounts').set({ available: -1 }).where('id', '=', id).execute()).rejects.toThrow(/check/i);
  });
});
