import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '../../src/domain/money.ts';
import { checkLedger, findLedgerDrift } from '../../src/ledger/ledger.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('ledger under concurrency (real PostgreSQL)', () => {
  it('50 concurrent holds against a balance that covers 20 accept exactly 20', async () => {
    expect(h.c.database.engine).toBe('postgres');
    const { id } = await h.createAccount();
    await h.c.ledger.creditOne(h.c.db, { accountId: id, amount: 20_000 as Cents, transactionId: null, reason: 'fund', counter: 'world' });
    const attempts = Array.from({ length: 50 }, () =>
      h.c.db.transaction().execute((trx) => h.c.ledger.holdOne(trx, { accountId: id, amount: 1_000 as Cents, transactionId: null, reason: 'race' })),
    );
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    expect(results.filter((r) => !r.ok && r.error === 'INSUFFICIENT_FUNDS')).toHaveLength(30);
    expect(await h.balance(id)).toEqual({ available: 0, blocked: 200 });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
    expect((await checkLedger(h.c.db)).ok).toBe(true);
  });
});
