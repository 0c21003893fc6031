import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { certificate, client, requestToken } from './auth-helpers.ts';

// Issue 10 item 5 (RFC 8705): a token is bound to the certificate it was requested with.

async function apiToken(h: Harness, c: Awaited<ReturnType<typeof client>>) {
  const res = await requestToken(h, encodeURIComponent(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret });
  expect(res.statusCode).toBe(201);
  return res.json().access_token as string;
}

async function oauthToken(h: Harness, c: Awaited<ReturnType<typeof client>>) {
  const res = await h.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'x-ssl-client-cert': encodeURIComponent(c.pem) },
    payload: { clientId: c.clientId, clientSecret: c.clientSecret },
  });
  expect(res.statusCode).toBe(200);
  return res.json().access_token as string;
}

const withCert = (pem: string) => ({ 'x-ssl-client-cert': encodeURIComponent(pem) });

describe('certificate-bound tokens, certificate optional (sandbox default)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('a token from certificate A used with certificate B answers 401 on both families, whichever route minted it', async () => {
    const a = await client(h);
    const otherPem = await certificate(h); // a valid certificate, just not the one the token is bound to
    for (const token of [await apiToken(h, a), await oauthToken(h, a)]) {
      const api = await h.api('GET', '/api/balance', token, undefined, withCert(otherPem));
      expect(api.statusCode).toBe(401);
      expect(api.json().message).toMatch(/another client certificate/);
      const compatible = await h.api('GET', '/accounts/balances', token, undefined, withCert(otherPem));
      expect(compatible.statusCode).toBe(401);
      expect(compatible.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.stringMatching(/another client certificate/) });
    }
  });

  it('the same token with its own certificate answers 200, and without any certificate too while the flag is off', async () => {
    const a = await client(h);
    for (const token of [await apiToken(h, a), await oauthToken(h, a)]) {
      const api = await h.api('GET', '/api/balance', token, undefined, withCert(a.pem));
      expect(api.statusCode).toBe(200);
      expect(api.json()).toMatchObject({ grossBalance: expect.any(Number) });
      expect((await h.api('GET', '/accounts/balances', token, undefined, withCert(a.pem))).statusCode).toBe(200);
      expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(200);
    }
  });

  it('an unreadable certificate header is not "no certificate": 401', async () => {
    const a = await client(h);
    const token = await apiToken(h, a);
    const res = await h.api('GET', '/api/balance', token, undefined, { 'x-ssl-client-cert': 'not-a-certificate' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/cannot be read/);
  });

  it('the sandbox routes an account calls with its token check the binding too', async () => {
    const a = await client(h);
    const token = await apiToken(h, a);
    const otherPem = await certificate(h);
    const body = { amount: 10 };
    const refused = await h.api('POST', '/sandbox/deposits', token, body, withCert(otherPem));
    expect(refused.statusCode).toBe(401);
    expect(await h.balance(a.account.id)).toMatchObject({ available: 0 });
    const accepted = await h.api('POST', '/sandbox/deposits', token, body, withCert(a.pem));
    expect(accepted.statusCode).toBe(201);
    expect(await h.balance(a.account.id)).toMatchObject({ available: 10 });
  });
});

describe('REQUIRE_CERTIFICATE_BOUND_TOKENS=true', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { REQUIRE_CERTIFICATE_BOUND_TOKENS: 'true' } });
  });
  afterAll(() => h.close());

  it('a resource call without a certificate answers 401 on both families; with the bound one 200', async () => {
    const a = await client(h);
    for (const token of [await apiToken(h, a), await oauthToken(h, a)]) {
      const api = await h.api('GET', '/api/balance', token);
      expect(api.statusCode).toBe(401);
      expect(api.json().message).toMatch(/send that certificate with every call/);
      expect((await h.api('GET', '/accounts/balances', token)).statusCode).toBe(401);
      expect((await h.api('GET', '/api/balance', token, undefined, withCert(a.pem))).statusCode).toBe(200);
      expect((await h.api('GET', '/accounts/balances', token, undefined, withCert(a.pem))).statusCode).toBe(200);
    }
  });

  it('still refuses another certificate', async () => {
    const a = await client(h);
    const token = await apiToken(h, a);
    expect((await h.api('GET', '/api/balance', token, undefined, withCert(await certificate(h)))).statusCode).toBe(401);
  });
});
