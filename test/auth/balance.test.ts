import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '../../src/domain/money.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('balances', () => {
  it('GET /api/balance answers gross, blocked, net and consultedAt from the ledger', async () => {
    const account = await h.createAccount({ funds: 150.75 });
    const token = await h.tokenFor(account.id, ['balance:read']);
    const res = await h.api('GET', '/api/balance', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ grossBalance: 150.75, blockedBalance: 0, netBalance: 150.75, consultedAt: h.clock.now().toISOString() });

    await h.c.db.transaction().execute(async (trx) => {
      const held = await h.c.ledger.holdOne(trx, { accountId: account.id, amount: 40_10 as Cents, transactionId: null, reason: 'test hold' });
      expect(held.ok).toBe(true);
    });
    expect((await h.api('GET', '/api/balance', token)).json()).toMatchObject({ grossBalance: 150.75, blockedBalance: 40.1, netBalance: 110.65 });
  });

  it('GET /accounts/balances answers one item with available, blocked and overdraft 0', async () => {
    const account = await h.createAccount({ funds: 99.99 });
    const token = await h.tokenFor(account.id);
    await h.c.db.transaction().execute((trx) =>
      h.c.ledger.holdOne(trx, { accountId: account.id, amount: 9_99 as Cents, transactionId: null, reason: 'test hold' }),
    );
    const res = await h.api('GET', '/accounts/balances', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [{ eventDate: h.clock.now().toISOString(), balanceAmount: { available: 90, blocked: 9.99, overdraft: 0 } }],
    });
  });

  it("answers the caller's own account only", async () => {
    const rich = await h.createAccount({ funds: 1000 });
    const poor = await h.createAccount();
    const token = await h.tokenFor(poor.id);
    expect((await h.api('GET', '/api/balance', token)).json().grossBalance).toBe(0);
    expect((await h.api('GET', `/api/balance?accountId=${rich.id}`, token)).json().grossBalance).toBe(0);
  });
});
