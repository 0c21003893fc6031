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

// The guard remembers verified signatures and shares one still-active query between concurrent
// calls: neither may let a revoked client through, nor turn one caller's revocation into another's 401.
describe('bearer guard under concurrency', () => {
  it('concurrent calls of a revoked and an active client each get their own answer, at once', async () => {
    const active = await client(h);
    const revoked = await client(h);
    const good = await tokenOf(active);
    const bad = await tokenOf(revoked);
    // Both verified (and remembered) once.
    expect((await h.api('GET', '/api/balance', good)).statusCode).toBe(200);
    expect((await h.api('GET', '/api/balance', bad)).statusCode).toBe(200);
    await h.c.db.updateTable('credentials').set({ revoked_at: h.clock.now() }).where('client_id', '=', revoked.clientId).execute();
    const calls = Array.from({ length: 12 }, (_, i) => h.api('GET', '/api/balance', i % 2 === 0 ? good : bad));
    const codes = (await Promise.all(calls)).map((r) => r.statusCode);
    expect(codes).toEqual(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 200 : 401)));
  });

  it('a remembered token still expires on the service clock', async () => {
    const c = await client(h);
    const token = await tokenOf(c);
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(200);
    await h.advance(1801);
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(401);
  });
});
