import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

const SANDBOX_POSTS = [
  '/sandbox/deposits',
  '/sandbox/dict/keys',
  '/sandbox/payouts/1/refund',
  '/sandbox/clock/advance',
  '/sandbox/charges/1/pay',
  '/sandbox/med',
  '/sandbox/med/1/transition',
];

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = (await h.createAccount().then((a) => h.tokenFor(a.id))) as string;
});
afterAll(() => h.close());

describe('sandbox routes authenticate before they judge the body', () => {
  it('no token or a bad token: 401 in the short form, whatever the body', async () => {
    for (const url of SANDBOX_POSTS) {
      for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
        for (const payload of [{}, { amount: 'x', to: 1 }]) {
          const res = await h.app.inject({ method: 'POST', url, headers, payload });
          expect(res.statusCode, `${url} ${res.body}`).toBe(401);
          expect(res.json()).toEqual({ statusCode: 401, message: expect.any(String), error: 'Unauthorized' });
        }
      }
    }
  });

  it("an account's token gets to validation (400), except the admin-only clock", async () => {
    for (const url of SANDBOX_POSTS) {
      const res = await h.api('POST', url, token, { amount: 'x', to: 1, seconds: 'x' });
      expect(res.statusCode, `${url} ${res.body}`).toBe(url === '/sandbox/clock/advance' ? 401 : 400);
    }
  });
});
