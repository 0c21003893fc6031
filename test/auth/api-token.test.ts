import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import { sql } from 'kysely';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { certificate, client, credentials, register, requestToken } from './auth-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const enc = encodeURIComponent;

/** The full envelope of an auth error, with a useful hint. */
function expectAuthError(res: Awaited<ReturnType<typeof requestToken>>, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({
    statusCode: status,
    path: '/api/auth/token',
    method: 'POST',
    code,
    errorCode: code,
    errorId: res.headers['x-request-id'],
    userMessage: expect.any(String),
    message: expect.any(String),
    error: expect.any(String),
    timestamp: h.clock.now().toISOString(),
  });
  expect(body.details.hint).toEqual(expect.any(String));
  expect(body.details.hint.length).toBeGreaterThan(20);
  return body;
}

describe('POST /api/auth/token', () => {
  it('answers 201 with an ES256 JWT bound to the certificate, valid 1800 s on the service clock', async () => {
    const c = await client(h);
    const res = await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 1800 });

    const header = decodeProtectedHeader(body.access_token);
    expect(header).toMatchObject({ alg: 'ES256', kid: expect.any(String) });
    const jwks = (await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toContain(header.kid);

    const claims = decodeJwt(body.access_token);
    const nowS = h.clock.now().getTime() / 1000;
    expect(claims.iat).toBe(nowS);
    expect(claims.exp).toBe(nowS + 1800);
    expect(claims).toMatchObject({ sub: String(c.account.id), account_id: c.account.id, client_id: c.clientId });
    expect(String(claims.scope).split(' ').sort()).toEqual(['balance:read', 'pix:read', 'pix:write', 'webhook:read', 'webhook:write']);
    const der = new X509Certificate(c.pem).raw;
    expect(claims.cnf).toEqual({ 'x5t#S256': createHash('sha256').update(der).digest('base64url') });
  });

  it('accepts a "+" of the base64 body sent as %2B', async () => {
    let pem = await certificate(h);
    while (!pem.includes('+')) pem = await certificate(h);
    const account = await h.createAccount();
    await register(h, account.id, pem);
    const creds = await credentials(h, account.id);
    const res = await requestToken(h, enc(pem), { clientId: creds.clientId, clientSecret: creds.clientSecret });
    expect(res.statusCode).toBe(201);
  });

  it('PUB_CERT_HEADER_MISSING (400) comes first, even with a bad body', async () => {
    expectAuthError(await requestToken(h, undefined, { clientId: 'x' }), 400, 'PUB_CERT_HEADER_MISSING');
    expectAuthError(await requestToken(h, '', { clientId: 'x' }), 400, 'PUB_CERT_HEADER_MISSING');
  });

  it('PUB_CERT_MALFORMED_PEM (400) for text that is not a certificate, bad percent-encoding, or a broken body', async () => {
    const c = await client(h);
    const body = { clientId: c.clientId, clientSecret: c.clientSecret };
    expectAuthError(await requestToken(h, 'not-a-certificate', body), 400, 'PUB_CERT_MALFORMED_PEM');
    expectAuthError(await requestToken(h, '%E0%A4%A', body), 400, 'PUB_CERT_MALFORMED_PEM');
    const broken = c.pem.replace(/\n([A-Za-z0-9+/]{10})/, '\n!!!!!!!!!!');
    expectAuthError(await requestToken(h, enc(broken), body), 400, 'PUB_CERT_MALFORMED_PEM');
    // Checked before the body: a malformed certificate with an invalid body is still this code.
    expectAuthError(await requestToken(h, 'garbage', { clientId: 1 }), 400, 'PUB_CERT_MALFORMED_PEM');
  });

  it('PUB_CERT_MALFORMED_PEM for a form-encoded header ("+" for spaces), naming the mistake', async () => {
    const c = await client(h);
    const formEncoded = new URLSearchParams({ c: c.pem }).toString().slice(2);
    expect(formEncoded).toContain('-----BEGIN+CERTIFICATE-----');
    const res = await requestToken(h, formEncoded, { clientId: c.clientId, clientSecret: c.clientSecret });
    const body = expectAuthError(res, 400, 'PUB_CERT_MALFORMED_PEM');
    expect(body.details.hint).toMatch(/form-encoded/);
    // The same certificate percent-encoded works.
    expect((await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret })).statusCode).toBe(201);
  });

  it('PUB_REQUEST_BODY_INVALID (400) lists each offending field in details.violations', async () => {
    const c = await client(h);
    const res = await requestToken(h, enc(c.pem), { clientId: 'not-a-uuid', clientSecret: 'short' });
    const body = expectAuthError(res, 400, 'PUB_REQUEST_BODY_INVALID');
    expect(body.details.violations).toEqual([
      { field: 'clientId', message: 'must be a UUID v4' },
      { field: 'clientSecret', message: 'must be at least 8 characters long' },
    ]);
    const v1 = randomUUID().replace(/^(.{14})4/, '$11'); // a UUID of version 1 is not a v4
    const missing = expectAuthError(await requestToken(h, enc(c.pem), { clientId: v1 }), 400, 'PUB_REQUEST_BODY_INVALID');
    expect(missing.details.violations).toHaveLength(2);
    expect(missing.details.violations).toEqual(
      expect.arrayContaining([
        { field: 'clientId', message: 'must be a UUID v4' },
        { field: 'clientSecret', message: 'is required' },
      ]),
    );
    const long = expectAuthError(
      await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: 'x'.repeat(65) }),
      400,
      'PUB_REQUEST_BODY_INVALID',
    );
    expect(long.details.violations).toEqual([{ field: 'clientSecret', message: 'must be at most 64 characters long' }]);
    const none = expectAuthError(await requestToken(h, enc(c.pem), undefined), 400, 'PUB_REQUEST_BODY_INVALID');
    expect(none.details.violations.length).toBeGreaterThan(0);
    const wrongType = expectAuthError(await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: 12345678 }), 400, 'PUB_REQUEST_BODY_INVALID');
    expect(wrongType.details.violations).toEqual([{ field: 'clientSecret', message: 'must be a string' }]);
  });

  it('judges the body before the validity window', async () => {
    const expired = await certificate(h, { from: -10 * 86_400_000, to: -1000 });
    const res = await requestToken(h, enc(expired), { clientId: 'nope', clientSecret: 'nope' });
    expectAuthError(res, 400, 'PUB_REQUEST_BODY_INVALID');
  });

  it('PUB_CERT_NOT_YET_VALID (401) and PUB_CERT_EXPIRED (401), even for registered certificates', async () => {
    const account = await h.createAccount();
    const creds = await credentials(h, account.id);
    const body = { clientId: creds.clientId, clientSecret: creds.clientSecret };
    const future = await certificate(h, { from: 86_400_000, to: 10 * 86_400_000 });
    await register(h, account.id, future);
    const early = expectAuthError(await requestToken(h, enc(future), body), 401, 'PUB_CERT_NOT_YET_VALID');
    expect(early.details.notBefore).toEqual(expect.any(String));
    const past = await certificate(h, { from: -10 * 86_400_000, to: -1000 });
    await register(h, account.id, past);
    expectAuthError(await requestToken(h, enc(past), body), 401, 'PUB_CERT_EXPIRED');
    // The validity window comes before the registry: unregistered and expired is "expired".
    const pastUnregistered = await certificate(h, { from: -10 * 86_400_000, to: -1000 });
    expectAuthError(await requestToken(h, enc(pastUnregistered), body), 401, 'PUB_CERT_EXPIRED');
  });

  it('judges the window on the service clock, also for a certificate whose parse is cached from its earlier 201', async () => {
    const h2 = await startHarness();
    try {
      const account = await h2.createAccount();
      const pem = await certificate(h2, { from: -1000, to: 3_600_000 });
      await register(h2, account.id, pem);
      const creds = await credentials(h2, account.id);
      const body = { clientId: creds.clientId, clientSecret: creds.clientSecret };
      expect((await requestToken(h2, enc(pem), body)).statusCode).toBe(201);
      await h2.advance(3601);
      const res = await requestToken(h2, enc(pem), body);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('PUB_CERT_EXPIRED');
    } finally {
      await h2.close();
    }
  });

  it('PUB_CERT_NOT_REGISTERED (401) for an unregistered or a revoked certificate (revoked after a 201 cached its parse)', async () => {
    const c = await client(h);
    const body = { clientId: c.clientId, clientSecret: c.clientSecret };
    const stranger = await certificate(h);
    const unregistered = expectAuthError(await requestToken(h, enc(stranger), body), 401, 'PUB_CERT_NOT_REGISTERED');
    expect(unregistered.details.fingerprint).toMatch(/^[0-9a-f]{64}$/);

    expect((await requestToken(h, enc(c.pem), body)).statusCode).toBe(201);
    expect((await h.admin('DELETE', `/admin/certificates/${c.fingerprint}`)).statusCode).toBe(204);
    expectAuthError(await requestToken(h, enc(c.pem), body), 401, 'PUB_CERT_NOT_REGISTERED');
  });

  it('PUB_INVALID_CREDENTIALS (401): the same answer for an unknown client and a wrong secret', async () => {
    const c = await client(h);
    const unknown = await requestToken(h, enc(c.pem), { clientId: randomUUID(), clientSecret: c.clientSecret });
    const wrong = await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: `${c.clientSecret}x`.slice(-64) });
    const a = expectAuthError(unknown, 401, 'PUB_INVALID_CREDENTIALS');
    const b = expectAuthError(wrong, 401, 'PUB_INVALID_CREDENTIALS');
    const strip = ({ errorId, ...rest }: Record<string, unknown>) => (void errorId, rest);
    expect(strip(a)).toEqual(strip(b));
  });

  it('PUB_INVALID_CREDENTIALS for an unknown client checks a dummy keyed hash, the work a wrong generated secret costs', async () => {
    // Timing parity by construction (a timed assertion is noise at microsecond HMAC costs): the
    // unknown client runs the same verification, against a hash in the generated secrets' scheme.
    const c = await client(h);
    const verify = vi.spyOn(h.c.secrets, 'verifySecret');
    try {
      expect((await requestToken(h, enc(c.pem), { clientId: randomUUID(), clientSecret: 'whatever-secret' })).statusCode).toBe(401);
      expect((await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: 'whatever-secret' })).statusCode).toBe(401);
      expect(verify).toHaveBeenCalledTimes(2);
      const [unknownCall, wrongCall] = verify.mock.calls;
      expect(unknownCall![1]).toBe(h.c.secrets.dummyHash);
      expect(unknownCall![1].split('$')[0]).toBe(wrongCall![1].split('$')[0]);
    } finally {
      verify.mockRestore();
    }
  });

  it('PUB_CERT_NOT_AUTHORIZED_FOR_ACCOUNT (403) for a certificate linked to another account', async () => {
    const mine = await client(h);
    const other = await client(h);
    const res = await requestToken(h, enc(other.pem), { clientId: mine.clientId, clientSecret: mine.clientSecret });
    expectAuthError(res, 403, 'PUB_CERT_NOT_AUTHORIZED_FOR_ACCOUNT');
  });

  it('PUB_AUTH_UPSTREAM_UNAVAILABLE (503) when the credential store cannot be queried', async () => {
    const c = await client(h);
    await sql`ALTER TABLE credentials RENAME TO credentials_offline`.execute(h.c.db);
    try {
      const res = await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret });
      expectAuthError(res, 503, 'PUB_AUTH_UPSTREAM_UNAVAILABLE');
    } finally {
      await sql`ALTER TABLE credentials_offline RENAME TO credentials`.execute(h.c.db);
    }
    expect((await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret })).statusCode).toBe(201);
  });

  it('PUB_AUTH_UPSTREAM_ERROR (502) when the credential store answers a record it cannot interpret', async () => {
    const c = await client(h);
    await h.c.db.updateTable('credentials').set({ secret_hash: 'md5$legacy' }).where('client_id', '=', c.clientId).execute();
    const res = await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret });
    expectAuthError(res, 502, 'PUB_AUTH_UPSTREAM_ERROR');
  });

  it('never writes the secret or the certificate to the log', async () => {
    const c = await client(h);
    h.logLines.length = 0;
    // The refusals' own debug lines too: read everything, so the check below sees every line written.
    h.c.logger.level = 'debug';
    try {
      expect((await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret })).statusCode).toBe(201);
      await requestToken(h, enc(c.pem), { clientId: c.clientId, clientSecret: 'wrong-secret-123' });
      await requestToken(h, enc(c.pem), { clientId: 'bad', clientSecret: c.clientSecret });
    } finally {
      h.c.logger.level = 'info';
    }
    const log = h.logLines.join('\n');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(c.clientSecret);
    expect(log).not.toContain('wrong-secret-123');
    const bodyLine = c.pem.split('\n')[2]!;
    expect(bodyLine.length).toBeGreaterThan(40);
    expect(log).not.toContain(bodyLine);
    expect(log).not.toContain(encodeURIComponent(bodyLine).slice(0, 40));
  });
});
