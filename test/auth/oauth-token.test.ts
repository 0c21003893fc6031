import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { certificate, client, register } from './auth-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const FORM = 'application/x-www-form-urlencoded';

function oauth(certPem: string | undefined, payload: string | object, headers: Record<string, string> = {}) {
  return h.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      ...(certPem !== undefined ? { 'x-ssl-client-cert': encodeURIComponent(certPem) } : {}),
      ...(typeof payload === 'string' ? { 'content-type': FORM } : {}),
      ...headers,
    },
    payload,
  });
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function expectOAuthError(res: Awaited<ReturnType<typeof oauth>>, status: number, error: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ error, error_description: expect.any(String) });
  expect(res.headers['cache-control']).toBe('no-store');
  if (status === 401) expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
  return res.json();
}

describe('POST /oauth/token', () => {
  it("takes the provider's JSON body and answers 200 with scope", async () => {
    const c = await client(h);
    const res = await oauth(c.pem, { clientId: c.clientId, clientSecret: c.clientSecret });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 1800, scope: expect.any(String) });
    expect(body.scope.split(' ').sort()).toEqual(['balance:read', 'pix:read', 'pix:write', 'webhook:read', 'webhook:write']);
    const balances = await h.api('GET', '/accounts/balances', body.access_token);
    expect(balances.statusCode).toBe(200);
  });

  it('takes the RFC 6749 form with client_id/client_secret, or HTTP Basic', async () => {
    const c = await client(h);
    const inBody = await oauth(c.pem, form({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret }));
    expect(inBody.statusCode).toBe(200);
    const withBasic = await oauth(c.pem, form({ grant_type: 'client_credentials' }), { authorization: basic(c.clientId, c.clientSecret) });
    expect(withBasic.statusCode).toBe(200);
    expect(decodeJwt(withBasic.json().access_token)).toMatchObject({ client_id: c.clientId, account_id: c.account.id });
  });

  it('narrows the token to a requested scope, and refuses a scope the credential lacks (invalid_scope)', async () => {
    const c = await client(h, ['balance:read', 'pix:read']);
    const narrowed = await oauth(c.pem, form({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'pix:read' }));
    expect(narrowed.statusCode).toBe(200);
    expect(narrowed.json().scope).toBe('pix:read');
    expect((await h.api('GET', '/accounts/balances', narrowed.json().access_token)).statusCode).toBe(403);
    const wider = await oauth(c.pem, form({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'pix:write' }));
    expectOAuthError(wider, 400, 'invalid_scope');
    const unknown = await oauth(c.pem, form({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'admin' }));
    expectOAuthError(unknown, 400, 'invalid_scope');
  });

  it('answers RFC 6749 errors for the grant and the client authentication', async () => {
    const c = await client(h);
    expectOAuthError(await oauth(c.pem, form({ grant_type: 'password', username: 'a', password: 'b' })), 400, 'unsupported_grant_type');
    expectOAuthError(await oauth(c.pem, form({ client_id: c.clientId, client_secret: c.clientSecret })), 400, 'invalid_request');
    expectOAuthError(await oauth(c.pem, form({ grant_type: 'client_credentials' })), 401, 'invalid_client');
    expectOAuthError(
      await oauth(c.pem, form({ grant_type: 'client_credentials', client_id: c.clientId }), { authorization: basic(c.clientId, c.clientSecret) }),
      400,
      'invalid_request',
    );
    expectOAuthError(
      await oauth(c.pem, `${form({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret })}&client_id=${c.clientId}`),
      400,
      'invalid_request',
    );
    expectOAuthError(await oauth(c.pem, { clientId: c.clientId }), 400, 'invalid_request');
  });

  it('applies the same certificate and credential rules, as invalid_request or invalid_client', async () => {
    const c = await client(h);
    const good = { clientId: c.clientId, clientSecret: c.clientSecret };
    expect(expectOAuthError(await oauth(undefined, good), 400, 'invalid_request').error_code).toBe('PUB_CERT_HEADER_MISSING');
    const formEncoded = await h.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'x-ssl-client-cert': new URLSearchParams({ c: c.pem }).toString().slice(2) },
      payload: good,
    });
    expect(expectOAuthError(formEncoded, 400, 'invalid_request').error_code).toBe('PUB_CERT_MALFORMED_PEM');
    const expired = await certificate(h, { from: -10 * 86_400_000, to: -1000 });
    expect(expectOAuthError(await oauth(expired, good), 401, 'invalid_client').error_code).toBe('PUB_CERT_EXPIRED');
    expect(expectOAuthError(await oauth(await certificate(h), good), 401, 'invalid_client').error_code).toBe('PUB_CERT_NOT_REGISTERED');
    const wrong = await oauth(c.pem, { clientId: c.clientId, clientSecret: 'wrong-secret' });
    expect(expectOAuthError(wrong, 401, 'invalid_client').error_code).toBe('PUB_INVALID_CREDENTIALS');
    const notUuid = await oauth(c.pem, form({ grant_type: 'client_credentials', client_id: 'my-client', client_secret: c.clientSecret }));
    expect(expectOAuthError(notUuid, 401, 'invalid_client').error_code).toBe('PUB_INVALID_CREDENTIALS');
    const unknown = await oauth(c.pem, { clientId: randomUUID(), clientSecret: c.clientSecret });
    expect(unknown.json()).toEqual(wrong.json());

    const other = await h.createAccount();
    const otherPem = await certificate(h);
    await register(h, other.id, otherPem);
    const linkedElsewhere = await oauth(otherPem, good);
    expect(expectOAuthError(linkedElsewhere, 401, 'invalid_client').error_code).toBe('PUB_CERT_NOT_AUTHORIZED_FOR_ACCOUNT');
  });

  it('accepts form bodies only on /oauth/token', async () => {
    const c = await client(h);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'x-ssl-client-cert': encodeURIComponent(c.pem), 'content-type': FORM },
      payload: form({ clientId: c.clientId, clientSecret: c.clientSecret }),
    });
    expect(res.statusCode).toBe(415);
  });
});
