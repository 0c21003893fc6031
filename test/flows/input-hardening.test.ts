import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
let token: string;
let accountId: number;
beforeAll(async () => {
  h = await startHarness();
  const account = await h.createAccount({ funds: 10 });
  accountId = account.id;
  token = await h.tokenFor(account.id);
});
afterAll(() => h.close());

describe('integers no database column holds answer 400, not 500', () => {
  it('page of GET /api/transactions and GET /api/med: Infinity and 1e20', async () => {
    for (const page of ['1e400', '99999999999999999999']) {
      const tx = await h.api('GET', `/api/transactions?page=${page}`, token);
      expect(tx.statusCode, tx.body).toBe(400);
      expect(tx.json()).toMatchObject({ code: 'HTTP_ERROR', message: [`page must be less than or equal to ${Number.MAX_SAFE_INTEGER}`], path: '/api/transactions' });
      const med = await h.api('GET', `/api/med?page=${page}`, token);
      expect(med.statusCode, med.body).toBe(400);
      expect(med.json()).toEqual({ statusCode: 400, message: [`page must be less than or equal to ${Number.MAX_SAFE_INTEGER}`], error: 'Bad Request' });
    }
    // A large but holdable page is simply empty.
    const far = await h.api('GET', '/api/transactions?page=1000000000', token);
    expect(far.statusCode).toBe(200);
    expect(far.json().data).toEqual([]);
  });

  it('accountId in a sandbox body', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/sandbox/deposits',
      headers: { authorization: 'Bearer test-admin-token-0123456789', 'content-type': 'application/json' },
      payload: `{"accountId": 100000000000000000000, "amount": 1}`,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toEqual([`accountId must be less than or equal to ${Number.MAX_SAFE_INTEGER}`]);
    expect(await h.balance(accountId)).toEqual({ available: 10, blocked: 0 });
  });
});
