import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClientCertificate } from '../../src/services/auth/x509.ts';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('admin certificates', () => {
  it('makes a key and a certificate, parses and registers it by its SHA-256 fingerprint', async () => {
    const { id } = await h.createAccount({ name: 'Cert Owner' });
    const res = await h.admin('POST', `/admin/accounts/${id}/certificates`, {});
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const cert = new X509Certificate(body.certificatePem);
    expect(body.fingerprint).toBe(cert.fingerprint256.replaceAll(':', '').toLowerCase());
    expect(body.subject).toContain('Cert Owner');
    expect(new Date(body.notAfter).getTime()).toBeGreaterThan(h.clock.now().getTime());
    const row = await h.c.db.selectFrom('certificates').selectAll().where('fingerprint', '=', body.fingerprint).executeTakeFirstOrThrow();
    expect(row.account_id).toBe(id);
  });

  it('registers a PEM made elsewhere, refuses a second registration and garbage', async () => {
    const { id } = await h.createAccount();
    const made = await makeClientCertificate({ commonName: 'external', notBefore: h.clock.now(), notAfter: new Date(h.clock.now().getTime() + 86_400_000) });
    const res = await h.admin('POST', `/admin/accounts/${id}/certificates`, { pem: made.certificatePem });
    expect(res.statusCode).toBe(201);
    expect(res.json().privateKeyPem).toBeUndefined();
    expect((await h.admin('POST', `/admin/accounts/${id}/certificates`, { pem: made.certificatePem })).statusCode).toBe(409);
    const garbage = await h.admin('POST', `/admin/accounts/${id}/certificates`, { pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toEqual(['pem must be a PEM-encoded X.509 certificate']);
    expect((await h.admin('POST', `/admin/accounts/424242/certificates`, {})).statusCode).toBe(404);
  });

  it('revokes a certificate once (204), then 404', async () => {
    const { id } = await h.createAccount();
    const { fingerprint } = (await h.admin('POST', `/admin/accounts/${id}/certificates`, {})).json();
    expect((await h.admin('DELETE', `/admin/certificates/${fingerprint}`)).statusCode).toBe(204);
    const row = await h.c.db.selectFrom('certificates').select('revoked_at').where('fingerprint', '=', fingerprint).executeTakeFirstOrThrow();
    expect(row.revoked_at).toEqual(h.clock.now());
    expect((await h.admin('DELETE', `/admin/certificates/${fingerprint}`)).statusCode).toBe(404);
    expect((await h.admin('DELETE', `/admin/certificates/not-a-fingerprint`)).statusCode).toBe(400);
  });
});

describe('admin credentials', () => {
  it('creates a UUID v4 clientId and a secret shown once, stored only as a keyed hash', async () => {
    const { id } = await h.createAccount();
    const res = await h.admin('POST', `/admin/accounts/${id}/credentials`, {});
    expect(res.statusCode).toBe(201);
    const { clientId, clientSecret, scopes } = res.json();
    expect(clientId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(clientSecret.length).toBeGreaterThanOrEqual(8);
    expect(clientSecret.length).toBeLessThanOrEqual(64);
    expect(scopes).toEqual(['pix:read', 'pix:write', 'balance:read', 'webhook:read', 'webhook:write']);
    const row = await h.c.db.selectFrom('credentials').selectAll().where('client_id', '=', clientId).executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(clientSecret);
    expect(row.secret_hash).toMatch(/^hmac-sha256\$/);
    expect(await h.c.secrets.verifySecret(clientSecret, row.secret_hash)).toBe(true);
    expect(await h.c.secrets.verifySecret(`${clientSecret}x`, row.secret_hash)).toBe(false);
  });

  it('accepts a chosen secret and scopes, and refuses a short secret or an unknown scope', async () => {
    const { id } = await h.createAccount();
    const res = await h.admin('POST', `/admin/accounts/${id}/credentials`, { clientSecret: 'my-secret-123', scopes: ['balance:read'] });
    expect(res.json()).toMatchObject({ clientSecret: 'my-secret-123', scopes: ['balance:read'] });
    const short = await h.admin('POST', `/admin/accounts/${id}/credentials`, { clientSecret: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toEqual(['clientSecret must be at least 8 characters long']);
    const scope = await h.admin('POST', `/admin/accounts/${id}/credentials`, { scopes: ['root'] });
    expect(scope.statusCode).toBe(400);
    expect(scope.json().message[0]).toMatch(/^scopes\[0\] must be one of/);
  });
});
