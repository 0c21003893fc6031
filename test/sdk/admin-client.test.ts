import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createPixAdminClient, createPixClient, PixApiError, unwrap, type PixAdminClient, type ShortErrorBody } from '../../sdk/src/index.ts';
import { cpf } from '../factories.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { OPERATOR, portalClient } from '../portal/portal-client.ts';

/** The SDK's admin client against the service listening on a port (issue 21 item 4). */
describe('sdk/ admin client', () => {
  let h: Harness;
  let baseUrl: string;
  let admin: PixAdminClient;

  beforeAll(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    admin = createPixAdminClient({ baseUrl, adminToken: ADMIN_TOKEN });
  });
  afterAll(() => h.close());

  it('calls the operator routes typed, with the admin token: create, search, page through, rotate, revoke', async () => {
    const created = await unwrap(admin.http.POST('/admin/accounts', { body: { name: 'SDK Operadora Ltda', document: '11222333000181' } }));
    expectTypeOf(created.id).toEqualTypeOf<number>();
    const found = await unwrap(admin.http.GET('/admin/accounts', { params: { query: { q: 'sdk operadora' } } }));
    expect(found.data.map((a) => a.id)).toEqual([created.id]);
    expectTypeOf(found.data[0]!.balance.available).toEqualTypeOf<number>();

    for (let i = 0; i < 3; i++) await unwrap(admin.http.POST('/admin/accounts/{id}/credentials', { params: { path: { id: String(created.id) } }, body: {} }));
    const clientIds: string[] = [];
    for await (const credential of admin.all((page) => unwrap(admin.http.GET('/admin/accounts/{id}/credentials', { params: { path: { id: String(created.id) }, query: { page, pageSize: 2 } } })))) {
      clientIds.push(credential.clientId);
    }
    expect(clientIds).toHaveLength(3);
    expect(new Set(clientIds).size).toBe(3);

    const revoked = await admin.http.DELETE('/admin/accounts/{id}/credentials/{clientId}', { params: { path: { id: String(created.id), clientId: clientIds[0]! } } });
    expect(revoked.response.status).toBe(204);
    const rotated = await unwrap(admin.http.POST('/admin/accounts/{id}/webhook-secret/rotate', { params: { path: { id: String(created.id) } } }));
    expectTypeOf(rotated.previousSecretValidUntil).toEqualTypeOf<string | null>();
    expect(rotated.secret).toMatch(/^whsec_/);
    const audit = await h.c.db.selectFrom('audit_log').select(['action', 'actor']).where('account_id', '=', created.id).orderBy('id').execute();
    expect(audit.map((r) => `${r.action} by ${r.actor}`)).toEqual([
      'account.create by admin-api',
      'credential.create by admin-api',
      'credential.create by admin-api',
      'credential.create by admin-api',
      'credential.revoke by admin-api',
      'webhook-secret.rotate by admin-api',
    ]);
  });

  it('accounts.update renames, accounts.suspend refuses money-moving calls with 403 ACCOUNT_SUSPENDED, accounts.reactivate lets them through again', async () => {
    const created = await admin.accounts.create({ name: 'Padaria Antiga', document: cpf(424_242) });
    await h.deposit(created.id, 100);
    const renamed = await admin.accounts.update(created.id, { name: 'Padaria Nova Ltda' });
    expectTypeOf(renamed.status).toEqualTypeOf<'ACTIVE' | 'SUSPENDED'>();
    expect(renamed).toMatchObject({ id: created.id, name: 'Padaria Nova Ltda', status: 'ACTIVE' });
    expect((await admin.accounts.get(created.id)).name).toBe('Padaria Nova Ltda');

    const { fingerprint, certificatePem } = await admin.certificates.create(created.id);
    const { clientId, clientSecret } = await admin.credentials.create(created.id);
    expect(certificatePem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const pix = createPixClient({ baseUrl, clientId, clientSecret, certificate: { cert: certificatePem! }, retry: { baseDelayMs: 5, maxDelayMs: 50 } });
    const payout = (externalId: string) =>
      pix.cashOut.create({ value: 1.5, externalId, details: { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria da Silva', document: cpf(5) } });

    const suspended = await admin.accounts.suspend(created.id);
    expect(suspended).toMatchObject({ id: created.id, status: 'SUSPENDED' });
    expect((await admin.accounts.get(created.id)).status).toBe('SUSPENDED');
    const refused = await payout('suspended-1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PixApiError);
    expect(refused).toMatchObject({ status: 403, code: 'ACCOUNT_SUSPENDED' });
    // Reads stay allowed; nothing left the account.
    expect(await pix.balance.get()).toMatchObject({ netBalance: 100 });

    const reactivated = await admin.accounts.reactivate(created.id);
    expect(reactivated).toMatchObject({ id: created.id, status: 'ACTIVE' });
    expect(await payout('reactivated-1')).toMatchObject({ externalId: 'reactivated-1', status: 'PENDING' });
    expect((await pix.transactions.list({ externalId: 'suspended-1' })).data).toEqual([]);

    // certificates.list: the one made above, by its fingerprint, not revoked; then revoked.
    const listed = await admin.certificates.list(created.id).toArray();
    expect(listed).toEqual([expect.objectContaining({ fingerprint, revoked: false, subject: expect.any(String), notAfter: expect.any(String) })]);
    await admin.certificates.revoke(fingerprint);
    expect((await admin.certificates.list(created.id)).data).toEqual([expect.objectContaining({ fingerprint, revoked: true })]);

    const audit = await h.c.db.selectFrom('audit_log').select(['action', 'actor']).where('account_id', '=', created.id).where('action', 'like', 'account.%').orderBy('id').execute();
    expect(audit.map((r) => `${r.action} by ${r.actor}`)).toEqual(expect.arrayContaining(['account.update by admin-api', 'account.suspend by admin-api', 'account.reactivate by admin-api']));
    await expect(admin.accounts.suspend(987_654)).rejects.toMatchObject({ status: 404, code: 'HTTP_404' });
  });

  it("operators.remove ends the operator's portal session at once", async () => {
    const operator = await admin.operators.create(OPERATOR);
    const portal = portalClient(h);
    await portal.signIn(OPERATOR.email, OPERATOR.password);
    expect((await portal.get('/portal/admin/accounts')).statusCode).toBe(200);

    await expect(admin.operators.remove(operator.id)).resolves.toBeUndefined();
    const after = await portal.get('/portal/admin/accounts');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toMatch(/^\/portal\/sign-in/);
    const ids: number[] = [];
    for await (const o of admin.operators.list()) ids.push(o.id);
    expect(ids).not.toContain(operator.id);
    await expect(admin.operators.remove(operator.id)).rejects.toMatchObject({ status: 404, code: 'HTTP_404' });
  });

  it('refusals are typed errors: the short envelope on `error`, a PixApiError from unwrap', async () => {
    const missing = await admin.http.GET('/admin/accounts/{id}/members', { params: { path: { id: '987654' } } });
    expect(missing.response.status).toBe(404);
    expectTypeOf(missing.error).toEqualTypeOf<ShortErrorBody | undefined>();
    expect(missing.error).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });

    const bad = await unwrap(admin.http.GET('/admin/accounts', { params: { query: { pageSize: 500 } } })).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(PixApiError);
    expect(bad).toMatchObject({ status: 400, code: 'HTTP_400', body: { message: [expect.stringMatching(/^pageSize /)] } });

    const stranger = createPixAdminClient({ baseUrl, adminToken: 'not-the-admin-token-at-all' });
    const refused = await unwrap(stranger.http.GET('/admin/operators')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'PixApiError', status: 401, code: 'HTTP_401' });
  });
});
