import { sql } from 'kysely';
import { generateKeyPair, decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { client, requestToken } from './auth-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function tokenOf(c: Awaited<ReturnType<typeof client>>) {
  const res = await requestToken(h, encodeURIComponent(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret });
  expect(res.statusCode).toBe(201);
  return res.json().access_token as string;
}

function expectFull401(res: Awaited<ReturnType<Harness['api']>>) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({
    statusCode: 401,
    path: '/api/balance',
    method: 'GET',
    code: 'HTTP_ERROR',
    error: 'Unauthorized',
    errorId: res.headers['x-request-id'],
    userMessage: expect.stringMatching(/inválido ou expirado/),
  });
}

function expectShort401(res: Awaited<ReturnType<Harness['api']>>) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ statusCode: 401, message: expect.any(String), error: 'Unauthorized' });
}

describe('bearer guard', () => {
  it('lets a valid token through on both families', async () => {
    const c = await client(h);
    const token = await tokenOf(c);
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(200);
    expect((await h.api('GET', '/accounts/balances', token)).statusCode).toBe(200);
  });

  it('401 without a token or with a malformed one: full envelope on /api, short form on the compatible family', async () => {
    expectFull401(await h.app.inject({ method: 'GET', url: '/api/balance' }));
    expectShort401(await h.app.inject({ method: 'GET', url: '/accounts/balances' }));
    for (const authorization of ['Bearer', 'Bearer abc', 'Bearer a.b.c', 'Basic dXNlcjpwYXNz', 'Token x.y.z']) {
      expectFull401(await h.app.inject({ method: 'GET', url: '/api/balance', headers: { authorization } }));
      expectShort401(await h.app.inject({ method: 'GET', url: '/accounts/balances', headers: { authorization } }));
    }
  });

  it('401 once the token has expired on the service clock (1800 s)', async () => {
    const h2 = await startHarness();
    try {
      const account = await h2.createAccount();
      const token = await h2.tokenFor(account.id);
      await h2.advance(1799);
      expect((await h2.api('GET', '/api/balance', token)).statusCode).toBe(200);
      await h2.advance(2);
      const res = await h2.api('GET', '/api/balance', token);
      expect(res.statusCode).toBe(401);
      expect(res.json().userMessage).toMatch(/inválido ou expirado/);
      expect((await h2.api('GET', '/accounts/balances', token)).json()).toEqual({ statusCode: 401, message: expect.any(String), error: 'Unauthorized' });
    } finally {
      await h2.close();
    }
  });

  it('401 for a token signed by another key under our kid, and for an unsigned or tampered token', async () => {
    const c = await client(h);
    const genuine = await tokenOf(c);
    const header = decodeProtectedHeader(genuine);
    const claims = decodeJwt(genuine);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(claims).setProtectedHeader(header as { alg: string; kid: string }).sign(privateKey);
    expectFull401(await h.api('GET', '/api/balance', forged));
    expectShort401(await h.api('GET', '/accounts/balances', forged));

    const unsigned = new UnsecuredJWT(claims).encode();
    expectFull401(await h.api('GET', '/api/balance', unsigned));

    // Widen the scope in the payload while keeping the genuine signature.
    const [h64, , s64] = genuine.split('.');
    const payload = Buffer.from(JSON.stringify({ ...claims, account_id: c.account.id + 1, sub: String(c.account.id + 1) })).toString('base64url');
    expectFull401(await h.api('GET', '/api/balance', `${h64}.${payload}.${s64}`));
  });

  it('401 once the credential is revoked, or the certificate the token is bound to', async () => {
    const c = await client(h);
    const token = await tokenOf(c);
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(200);
    // No admin route revokes credentials yet; the column is what a revocation sets.
    await h.c.db.updateTable('credentials').set({ revoked_at: h.clock.now() }).where('client_id', '=', c.clientId).execute();
    expectFull401(await h.api('GET', '/api/balance', token));

    const d = await client(h);
    const other = await tokenOf(d);
    expect((await h.admin('DELETE', `/admin/certificates/${d.fingerprint}`)).statusCode).toBe(204);
    expectFull401(await h.api('GET', '/api/balance', other));
  });

  it('503, not 401, when the credential store cannot be asked', async () => {
    const token = await tokenOf(await client(h));
    await sql`ALTER TABLE credentials RENAME TO credentials_offline`.execute(h.c.db);
    try {
      const res = await h.api('GET', '/api/balance', token);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ statusCode: 503, code: 'HTTP_ERROR' });
    } finally {
      await sql`ALTER TABLE credentials_offline RENAME TO credentials`.execute(h.c.db);
    }
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(200);
  });

  it('documents the auth routes in the OpenAPI document', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/api/auth/token', '/oauth/token', '/api/balance', '/accounts/balances', '/.well-known/jwks.json']) {
      expect(doc.paths).toHaveProperty([path]);
    }
  });

  it('403 for a token without the route scope', async () => {
    const c = await client(h, ['pix:read']);
    const token = await tokenOf(c);
    const res = await h.api('GET', '/api/balance', token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ statusCode: 403, code: 'HTTP_ERROR', error: 'Forbidden', details: { requiredScope: 'balance:read' } });
    const short = await h.api('GET', '/accounts/balances', token);
    expect(short.statusCode).toBe(403);
    expect(short.json()).toEqual({ statusCode: 403, message: expect.stringContaining('balance:read'), error: 'Forbidden' });
    const ok = await tokenOf(await client(h, ['balance:read']));
    expect((await h.api('GET', '/api/balance', ok)).statusCode).toBe(200);
  });
});

describe('signing keys', () => {
  it('publishes only public keys', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(res.statusCode).toBe(200);
    const { keys } = res.json();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toEqual({ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), kid: expect.any(String), alg: 'ES256', use: 'sig' });
      expect(key).not.toHaveProperty('d');
    }
  });

  it('rotation keeps the old key verifying until its tokens expire, then drops it', async () => {
    const h2 = await startHarness();
    try {
      const account = await h2.createAccount();
      const before = await h2.tokenFor(account.id);
      const oldKid = decodeProtectedHeader(before).kid;
      await h2.c.signingKeys.rotate();
      const after = await h2.tokenFor(account.id);
      const newKid = decodeProtectedHeader(after).kid;
      expect(newKid).not.toBe(oldKid);
      const kids = async () =>
        ((await h2.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys as Array<{ kid: string }>).map((k) => k.kid);
      expect(await kids()).toEqual([newKid, oldKid]);
      expect((await h2.api('GET', '/api/balance', before)).statusCode).toBe(200);
      expect((await h2.api('GET', '/api/balance', after)).statusCode).toBe(200);
      // Still listed a token's lifetime later: another instance may have signed with it for up to
      // 30 s after the rotation (the signing key each instance remembers), and those tokens verify.
      await h2.advance(1801);
      expect(await kids()).toEqual([newKid, oldKid]);
      await h2.advance(30);
      expect(await kids()).toEqual([newKid]);
    } finally {
      await h2.close();
    }
  });

  it('keeps its keys across restarts (tokens survive a restart)', async () => {
    const account = await h.createAccount();
    const token = await h.tokenFor(account.id);
    const kid = decodeProtectedHeader(token).kid;
    await h.c.signingKeys.ensure(); // what a second start does: nothing new
    const res = await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(res.json().keys.map((k: { kid: string }) => k.kid)).toEqual([kid]);
  });
});
