import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '../../src/domain/money.ts';
import { checkLedger, findLedgerDrift } from '../../src/ledger/ledger.ts';
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
      expect(await ledger.creditOne(trx, { accountId: id, amount: c(10_000), transactionId: null, reason: 'test', counter: 'world' })).toEqual({ ok: true, available: 10_000, blocked: 0 });
      expect(await ledger.holdOne(trx, { accountId: id, amount: c(3_000), transactionId: null, reason: 'test' })).toEqual({ ok: true, available: 7_000, blocked: 3_000 });
      expect(await ledger.settleOne(trx, { accountId: id, amount: c(1_000), transactionId: null, reason: 'test', counter: 'network:sandbox' })).toEqual({ ok: true, available: 7_000, blocked: 2_000 });
      expect(await ledger.releaseOne(trx, { accountId: id, amount: c(2_000), transactionId: null, reason: 'test' })).toEqual({ ok: true, available: 9_000, blocked: 0 });
    });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('refuses a hold the available balance does not cover, and a settle or release beyond blocked', async () => {
    const { id } = await h.createAccount();
    const { ledger } = h.c;
    await ledger.creditOne(h.c.db, { accountId: id, amount: c(500), transactionId: null, reason: 'test', counter: 'world' });
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
    expect(await ledger.settleOne(h.c.db, { accountId: id, amount: c(401), transactionId: null, reason: 'x', counter: 'network:sandbox' })).toEqual({ ok: false, error: 'INSUFFICIENT_BLOCKED' });
    expect(await ledger.releaseOne(h.c.db, { accountId: id, amount: c(401), transactionId: null, reason: 'x' })).toEqual({ ok: false, error: 'INSUFFICIENT_BLOCKED' });
    expect(await h.balance(id)).toEqual({ available: 1, blocked: 4 });
  });

  it('rejects non-integer or non-positive amounts before touching the database', async () => {
    const { id } = await h.createAccount();
    await expect(h.c.ledger.creditOne(h.c.db, { accountId: id, amount: c(1.5), transactionId: null, reason: 'x', counter: 'world' })).rejects.toThrow(RangeError);
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
          const entry = { accountId: id, amount: c(amount), transactionId: null, reason: 'property', counter: 'world' as const };
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
        expect((await checkLedger(h.c.db)).ok).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('the database itself refuses a negative balance (CHECK constraint)', async () => {
    const { id } = await h.createAccount();
    await expect(h.c.db.updateTable('accounts').set({ available: -1 as Cents }).where('id', '=', id).execute()).rejects.toThrow(/check/i);
  });
});

describe('double entry', () => {
  type Row = { account_id: number | null; bucket: string | null; ledger_account: string | null; delta: number; journal_id: string };
  const sides = (rows: Row[]) => rows.map((r) => [r.ledger_account ?? `${r.account_id}:${r.bucket}`, Number(r.delta)]);

  it('a cash-out with a fee moves available -> blocked, then blocked -> network clearing and fee revenue, each journal summing to zero', async () => {
    const { id } = await h.createAccount();
    await h.c.ledger.creditOne(h.c.db, { accountId: id, amount: c(10_000), transactionId: null, reason: 'fund', counter: 'world' });
    await h.c.db.transaction().execute(async (trx) => {
      await h.c.ledger.holdOne(trx, { accountId: id, amount: c(1_050), transactionId: null, reason: 'hold' });
      await h.c.ledger.settleOne(trx, { accountId: id, amount: c(1_050), transactionId: null, reason: 'settle', counter: 'network:sandbox', fee: c(50) });
    });
    // This file's harness runs one command at a time: the last five postings are this movement's.
    const rows = (await h.c.db.selectFrom('postings').select(['account_id', 'bucket', 'ledger_account', 'delta', 'journal_id']).orderBy('id', 'desc').limit(5).execute()) as Row[];
    const mine = rows.reverse();
    expect(sides(mine)).toEqual([
      [`${id}:available`, -1_050],
      [`${id}:blocked`, 1_050],
      [`${id}:blocked`, -1_050],
      ['fee_revenue', 50],
      ['network:sandbox', 1_000],
    ]);
    const journals = new Map<string, number>();
    for (const r of mine) journals.set(r.journal_id, (journals.get(r.journal_id) ?? 0) + Number(r.delta));
    expect([...journals.values()]).toEqual([0, 0]);
  });

  it('a credit takes the gross amount from its counter account and gives the fee to fee revenue', async () => {
    const { id } = await h.createAccount();
    const before = await checkLedger(h.c.db);
    const balanceOf = (check: typeof before, code: string) => check.systemAccounts.find((a) => a.code === code)!.balance;
    await h.c.ledger.creditOne(h.c.db, { accountId: id, amount: c(970), transactionId: null, reason: 'in', counter: 'onus_clearing', fee: c(30) });
    const after = await checkLedger(h.c.db);
    expect(after.ok).toBe(true);
    expect(balanceOf(after, 'onus_clearing') - balanceOf(before, 'onus_clearing')).toBe(-1_000);
    expect(balanceOf(after, 'fee_revenue') - balanceOf(before, 'fee_revenue')).toBe(30);
    expect(await h.balance(id)).toEqual({ available: 9.7, blocked: 0 });
  });

  it('a refused movement writes no posting on either side', async () => {
    const { id } = await h.createAccount();
    const before = await checkLedger(h.c.db);
    const result = await h.c.ledger.settleOne(h.c.db, { accountId: id, amount: c(1), transactionId: null, reason: 'refused', counter: 'network:sandbox' });
    expect(result).toEqual({ ok: false, error: 'INSUFFICIENT_BLOCKED' });
    const after = await checkLedger(h.c.db);
    expect(after.postings.count).toBe(before.postings.count);
  });

  it('the check reports a broken ledger: an unbalanced journal, drift, and a balance changed behind its postings', async () => {
    const own = await startHarness({ checkLedgerOnClose: false });
    try {
      const { id } = await own.createAccount();
      await own.c.ledger.creditOne(own.c.db, { accountId: id, amount: c(500), transactionId: null, reason: 'fund', counter: 'world' });
      expect(await checkLedger(own.c.db)).toMatchObject({ ok: true, unbalancedJournals: { count: 0 }, drift: { count: 0 } });
      // A posting written outside the ledger (no counter side): unbalanced and drifting.
      await own.c.db.insertInto('postings').values({ account_id: id, bucket: 'available', ledger_account: null, transaction_id: null, delta: c(7), reason: 'rogue', journal_id: '00000000-0000-4000-8000-000000000001', created_at: new Date() }).execute();
      const broken = await checkLedger(own.c.db);
      expect(broken.ok).toBe(false);
      expect(broken.postings.total).toBe(7);
      expect(broken.unbalancedJournals).toEqual({ count: 1, items: [{ journalId: '00000000-0000-4000-8000-000000000001', sum: 7 }] });
      expect(broken.drift).toEqual({ count: 1, items: [{ id, available: 500, blocked: 0, postedAvailable: 507, postedBlocked: 0 }] });
      expect(broken.negativeBalances.count).toBe(0);
    } finally {
      await own.close();
    }
  });
});
