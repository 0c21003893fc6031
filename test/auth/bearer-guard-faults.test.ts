import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { client, requestToken } from './auth-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('bearer guard failures are never silent', () => {
  it('a programming error while checking a token is a logged 500, not a silent 503', async () => {
    const c = await client(h);
    const res = await requestToken(h, encodeURIComponent(c.pem), { clientId: c.clientId, clientSecret: c.clientSecret });
    const token = res.json().access_token as string;
    const bug = vi.spyOn(h.c.tokens, 'verify').mockImplementation(() => {
      throw new TypeError('guard bug: cannot read properties of undefined');
    });
    try {
      const answer = await h.api('GET', '/api/balance', token);
      expect(answer.statusCode).toBe(500);
      expect(answer.json()).toMatchObject({ statusCode: 500, errorId: answer.headers['x-request-id'] });
      const logged = h.logLines.map((l) => JSON.parse(l)).find((l) => l.errorId === answer.headers['x-request-id']);
      expect(logged).toMatchObject({ level: 50, msg: 'unexpected error', err: { type: 'TypeError', message: 'guard bug: cannot read properties of undefined' } });
    } finally {
      bug.mockRestore();
    }
    expect((await h.api('GET', '/api/balance', token)).statusCode).toBe(200);
  });
});
