import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { client, requestToken } from './auth-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.c.start(); // the listener: without it nothing is remembered
  await new Promise((resolve) => setTimeout(resolve, 200));
});
afterAll(() => h.close());

async function tokenOf(c: Awaited<ReturnType<typeof client>>) {
  const res = await requestToken(h, encodeURIComponent(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret });
  expect(res.statusCode).toBe(201);
  return res.json().access_token as string;
}

describe('the still-active check from memory on PGlite (in-process notifications)', () => {
  it('a revoked certificate fails on the very next request', async () => {
    const c = await client(h);
    const token = await tokenOf(c);
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(200);
    expect((await h.admin('DELETE', `/admin/certificates/${c.fingerprint}`)).statusCode).toBe(204);
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(401);
  });

  it('a credential revoked by a plain UPDATE fails on the very next request', async () => {
    const c = await client(h);
    const token = await tokenOf(c);
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(200);
    await h.c.db.updateTable('credentials').set({ revoked_at: h.clock.now() }).where('client_id', '=', c.clientId).execute();
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(401);
  });
});
