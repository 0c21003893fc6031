import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endToEndId } from '../../src/domain/ids.ts';
import { cents } from '../../src/domain/money.ts';
import { startHarness, type Harness } from '../harness.ts';
import { portalClient, signedInOperator } from './portal-client.ts';

/** Issue 13 item 2: operators assign money held in suspense from the admin panel. */
let h: Harness;
let operator: ReturnType<typeof portalClient>;
beforeAll(async () => {
  h = await startHarness();
  operator = await signedInOperator(h, { address: '10.20.30.41' });
});
afterAll(() => h.close());

describe('admin panel: suspense', () => {
  it('lists money held in suspense and assigns it to an account (audited); a bad account number is refused, naming the field', async () => {
    const endToEnd = endToEndId('E', '60746948', h.clock.now());
    // What the provider adapter does with a PIX to the pooled key that names no charge.
    const item = await h.c.suspense.receive({ amount: cents(4321), payer: { name: 'Pagadora Avulsa', document: '52998224725', ispb: '60746948' }, endToEndId: endToEnd, providerTransactionId: 'p-1', reason: 'no_charge', chargeReference: null });
    const account = await h.createAccount();

    const page = await operator.get('/portal/admin/suspense');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('>Suspense</a>');
    expect(page.body).toContain('Pagadora Avulsa');
    expect(page.body).toContain('R$ 43,21');
    expect(page.body).toContain(`action="/portal/admin/suspense/${item.id}/assign"`);

    const bad = await operator.post(`/portal/admin/suspense/${item.id}/assign`, { accountId: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('accountId must be an account number');
    const unknown = await operator.post(`/portal/admin/suspense/${item.id}/assign`, { accountId: '999999' });
    expect(unknown.statusCode).toBe(404);

    const done = await operator.post(`/portal/admin/suspense/${item.id}/assign`, { accountId: String(account.id) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain(`Assigned to account #${account.id}`);
    expect(done.body).not.toContain('Pagadora Avulsa'); // no longer waiting
    expect(await h.balance(account.id)).toEqual({ available: 43.21, blocked: 0 });
    const audit = await h.c.db.selectFrom('audit_log').selectAll().where('action', '=', 'suspense.assign').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ account_id: account.id, actor_email: 'ops@example.com', address: '10.20.30.41', target: `suspense:${item.id}` });
    const again = await operator.post(`/portal/admin/suspense/${item.id}/assign`, { accountId: String(account.id) });
    expect(again.statusCode).toBe(409);
  });

  it('in sandbox mode the network status names the simulator, and there is no provider notice route', async () => {
    const status = await h.admin('GET', '/admin/network/status');
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ adapter: 'sandbox', ledgerAccount: 'network:sandbox', provider: null, suspense: { count: 0, total: 0 } });
    expect((await h.app.inject({ method: 'POST', url: '/network/provider/webhooks', payload: {} })).statusCode).toBe(404);
    expect((await h.admin('POST', '/admin/network/statement-check')).statusCode).toBe(404);
  });
});
