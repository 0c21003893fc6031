import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createPixAdminClient, PixApiError, unwrap, type PixAdminClient, type ShortErrorBody } from '../../sdk/src/index.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';

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
