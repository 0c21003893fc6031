import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

/** POST /admin/signing-keys/rotate (issue 21 item 3): the new key signs, the old one stays published until its tokens expire. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const kids = async () => ((await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys as Array<{ kid: string }>).map((k) => k.kid);

describe('POST /admin/signing-keys/rotate', () => {
  it('signs new tokens with a new key at once; tokens of the old key keep working, and it stays in the JWKS until they have expired', async () => {
    const account = await h.createAccount();
    const before = await h.tokenFor(account.id);
    const oldKid = decodeProtectedHeader(before).kid!;
    expect(await kids()).toEqual([oldKid]);

    const res = await h.admin('POST', '/admin/signing-keys/rotate');
    expect(res.statusCode).toBe(200);
    const rotated = res.json();
    expect(rotated).toEqual({
      kid: expect.any(String),
      previousKid: oldKid,
      // A token's lifetime (1800 s) plus the 30 s another instance may still sign with the old key.
      previousKeyValidUntil: new Date(h.clock.now().getTime() + 1830_000).toISOString(),
    });
    expect(rotated.kid).not.toBe(oldKid);
    const after = await h.tokenFor(account.id);
    expect(decodeProtectedHeader(after).kid).toBe(rotated.kid);
    expect(await kids()).toEqual([rotated.kid, oldKid]);
    expect((await h.api('GET', '/api/balance', before)).statusCode).toBe(200);
    expect((await h.api('GET', '/api/balance', after)).statusCode).toBe(200);

    await h.advance(1830);
    expect(await kids()).toEqual([rotated.kid, oldKid]);
    await h.advance(1);
    expect(await kids()).toEqual([rotated.kid]);
    // The old token had expired by then anyway; the new key's tokens still work.
    expect((await h.api('GET', '/api/balance', await h.tokenFor(account.id))).statusCode).toBe(200);

    const audit = await h.c.db.selectFrom('audit_log').selectAll().where('action', '=', 'signing-key.rotate').execute();
    expect(audit).toEqual([expect.objectContaining({ actor: 'admin-api', account_id: null, target: `signing-key:${rotated.kid}`, before: { kid: oldKid } })]);
  });

  it('an instance keeps signing with the key it remembers for at most 30 s of the service clock too: a clock advanced past the old key\'s life never gets it', async () => {
    const account = await h.createAccount();
    const { kid } = (await h.admin('POST', '/admin/signing-keys/rotate')).json();
    expect(decodeProtectedHeader(await h.tokenFor(account.id)).kid).toBe(kid); // this instance now remembers `kid`
    // Another instance's rotation: this one still remembers `kid` (real time has hardly moved).
    await h.c.db.updateTable('signing_keys').set({ retired_at: h.clock.now() }).where('kid', '=', kid).execute();
    const other = await h.c.db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirstOrThrow();
    await h.c.db.insertInto('signing_keys').values({ ...other, kid: `${kid}-other`, retired_at: null, public_jwk: JSON.stringify({ ...(other.public_jwk as object), kid: `${kid}-other` }), private_jwk: JSON.stringify(other.private_jwk) }).execute();
    await h.advance(1831 + 1);
    const token = await h.tokenFor(account.id);
    expect(decodeProtectedHeader(token).kid).toBe(`${kid}-other`);
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(200);
  });
});
