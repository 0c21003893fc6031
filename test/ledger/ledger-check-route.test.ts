import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cents } from '../../src/domain/money.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody } from '../payouts/helpers.ts';

let h: Harness;
beforeAll(async () => {
  // The last test breaks the ledger on purpose.
  h = await startHarness({ checkLedgerOnClose: false });
});
afterAll(() => h.close());

const check = () => h.admin('GET', '/admin/ledger/check');
const system = (body: { systemAccounts: Array<{ code: string; balance: number }> }) =>
  Object.fromEntries(body.systemAccounts.map((a) => [a.code, a.balance]));

describe('GET /admin/ledger/check', () => {
  it('needs the admin token', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/admin/ledger/check' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).not.toHaveProperty('ok');
  });

  it('an empty ledger is consistent', async () => {
    const res = await check();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      checkedAt: '2026-11-20T15:00:00.000Z',
      postings: { count: 0, total: 0 },
      unbalancedJournals: { count: 0, items: [] },
      drift: { count: 0, items: [] },
      negativeBalances: { count: 0, items: [] },
    });
  });

  it('deposit, cash-in fee, cash-out with fee, settlement: every movement balanced against the chart', async () => {
    const { id } = await h.createAccount();
    const fees = await h.admin('PATCH', `/admin/accounts/${id}/fees`, { cashIn: { fixed: 0.5, percent: 0 }, cashOut: { fixed: 0.25, percent: 0 } });
    expect(fees.statusCode).toBe(200);
    await h.deposit(id, 100);
    const token = await h.tokenFor(id);
    const out = await h.api('POST', '/api/pix/cash-out', token, cashOutBody({ value: 10 }));
    expect(out.statusCode).toBe(201);
    await h.advance(2);
    expect(await h.balance(id)).toEqual({ available: 89.25, blocked: 0 });
    const res = await check();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, postings: { total: 0 }, unbalancedJournals: { count: 0 }, drift: { count: 0 }, negativeBalances: { count: 0 } });
    // The world paid 100.00; fees 0.50 in + 0.25 out; 10.00 left through the sandbox network.
    expect(system(body)).toMatchObject({ world: -100, fee_revenue: 0.75, 'network:sandbox': 10, onus_clearing: 0, med_clearing: 0, suspense: 0 });
  });

  it('answers 200 with ok false and the findings when the ledger is broken', async () => {
    const { id } = await h.createAccount({ funds: 5 });
    // A balance changed behind the ledger's back, and a posting nobody balanced.
    await h.c.db.updateTable('accounts').set({ blocked: cents(300) }).where('id', '=', id).execute();
    await h.c.db
      .insertInto('postings')
      .values({ account_id: null, bucket: null, ledger_account: 'suspense', transaction_id: null, delta: cents(-42), reason: 'test', journal_id: '00000000-0000-4000-8000-0000000000aa', created_at: new Date() })
      .execute();
    const res = await check();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: false,
      postings: { total: -0.42 },
      unbalancedJournals: { count: 1, items: [{ journalId: '00000000-0000-4000-8000-0000000000aa', sum: -0.42 }] },
      drift: { count: 1, items: [{ accountId: id, available: 5, blocked: 3, postedAvailable: 5, postedBlocked: 0 }] },
      negativeBalances: { count: 0 },
    });
  });
});
