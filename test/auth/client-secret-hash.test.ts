import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretHasher, hashChosenSecret, secretHashKey } from '../../src/services/auth/secret-hash.ts';
import { loadSecretHashKeys } from '../../src/services/auth/secret-hash-keys.ts';
import { startHarness, type Harness } from '../harness.ts';
import { certificate, credentials, register, requestToken } from './auth-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function storedHash(clientId: string) {
  return (await h.c.db.selectFrom('credentials').select('secret_hash').where('client_id', '=', clientId).executeTakeFirstOrThrow()).secret_hash;
}

/** An account with a registered certificate; `secret` chooses the client secret (else generated). */
async function clientWith(body: { clientSecret?: string } = {}) {
  const account = await h.createAccount();
  const pem = await certificate(h);
  await register(h, account.id, pem);
  const creds = await credentials(h, account.id, body);
  return { account, cert: encodeURIComponent(pem), ...creds };
}

describe('client secrets: keyed hash for generated ones, scrypt for chosen ones', () => {
  it('a generated secret (>= 128 bits) is stored as HMAC-SHA256 and gets a token; a wrong one is refused', async () => {
    const c = await clientWith();
    // 36 base64url characters = 216 random bits.
    expect(c.clientSecret).toMatch(/^[A-Za-z0-9_-]{36}$/);
    expect(await storedHash(c.clientId)).toMatch(/^hmac-sha256\$[A-Za-z0-9_-]{12}\$[A-Za-z0-9_-]{43}$/);
    const ok = await requestToken(h, c.cert, { clientId: c.clientId, clientSecret: c.clientSecret });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().access_token).toEqual(expect.any(String));
    const wrong = await requestToken(h, c.cert, { clientId: c.clientId, clientSecret: `${c.clientSecret}x` });
    expect(wrong.statusCode).toBe(401);
  });

  it('a secret the caller chose keeps a memory-hard scrypt hash, and both it and a wrong one answer as they should', async () => {
    const c = await clientWith({ clientSecret: 'chosen-by-a-person-1' });
    expect(await storedHash(c.clientId)).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect((await requestToken(h, c.cert, { clientId: c.clientId, clientSecret: 'chosen-by-a-person-1' })).statusCode).toBe(201);
    expect((await requestToken(h, c.cert, { clientId: c.clientId, clientSecret: 'chosen-by-a-person-2' })).statusCode).toBe(401);
  });

  it('a scrypt hash stored before keyed hashing keeps working, and is not turned into a fast hash', async () => {
    const c = await clientWith();
    const oldSecret = randomBytes(27).toString('base64url');
    const oldHash = await hashChosenSecret(oldSecret);
    await h.c.db.updateTable('credentials').set({ secret_hash: oldHash }).where('client_id', '=', c.clientId).execute();
    expect((await requestToken(h, c.cert, { clientId: c.clientId, clientSecret: oldSecret })).statusCode).toBe(201);
    expect((await requestToken(h, c.cert, { clientId: c.clientId, clientSecret: c.clientSecret })).statusCode).toBe(401);
    expect(await storedHash(c.clientId)).toBe(oldHash);
  });

  it('a keyed hash under a key this instance does not hold is a server fault (5xx), never a match', async () => {
    const c = await clientWith();
    const foreign = createSecretHasher({ current: secretHashKey(randomBytes(32)) });
    await h.c.db.updateTable('credentials').set({ secret_hash: foreign.hashGeneratedSecret(c.clientSecret) }).where('client_id', '=', c.clientId).execute();
    const res = await requestToken(h, c.cert, { clientId: c.clientId, clientSecret: c.clientSecret });
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    expect(await h.c.secrets.verifySecret(c.clientSecret, foreign.hashGeneratedSecret(c.clientSecret))).toBe(false);
  });

  it('CLIENT_SECRET_HASH_KEY hashes new secrets; hashes made under the database-kept key still verify', async () => {
    const c = await clientWith();
    const configured = randomBytes(32);
    const keys = await loadSecretHashKeys({ db: h.c.db, clock: h.clock, configured, warnWhenUnset: true, logger: h.c.logger });
    expect(keys.current.id).toBe(secretHashKey(configured).id);
    const hasher = createSecretHasher(keys);
    expect(await hasher.verifySecret(c.clientSecret, await storedHash(c.clientId))).toBe(true);
    expect(await hasher.verifySecret(`${c.clientSecret}x`, await storedHash(c.clientId))).toBe(false);
    const fresh = hasher.hashGeneratedSecret('another-generated-secret-0123456789');
    expect(fresh.split('$')[1]).toBe(keys.current.id);
    expect(await hasher.verifySecret('another-generated-secret-0123456789', fresh)).toBe(true);
  });

  it('every instance on one database hashes under the same kept key (it is made once)', async () => {
    const again = await loadSecretHashKeys({ db: h.c.db, clock: h.clock, configured: undefined, warnWhenUnset: false, logger: h.c.logger });
    const c = await clientWith();
    expect((await storedHash(c.clientId)).split('$')[1]).toBe(again.current.id);
  });
});
