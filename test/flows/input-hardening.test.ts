import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';

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
      expect(med.json()).toMatchObject({ code: 'HTTP_ERROR', message: [`page must be less than or equal to ${Number.MAX_SAFE_INTEGER}`], path: '/api/med' });
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
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: `{"accountId": 100000000000000000000, "amount": 1}`,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toEqual([`accountId must be less than or equal to ${Number.MAX_SAFE_INTEGER}`]);
    expect(await h.balance(accountId)).toEqual({ available: 10, blocked: 0 });
  });
});

describe('the NUL character, which PostgreSQL text cannot hold, answers 400 in the family format', () => {
  it('in a body field, a path value and a query value', async () => {
    const body = { value: 1, externalId: 'a\u0000b', details: { key: 'x@example.com', keyType: 'EMAIL', name: 'N', document: '11144477735' } };
    const cashOut = await h.api('POST', '/api/pix/cash-out', token, body);
    expect(cashOut.statusCode, cashOut.body).toBe(400);
    expect(cashOut.json()).toMatchObject({ statusCode: 400, code: 'HTTP_ERROR', message: ['externalId must not contain the NUL character (\\u0000)'], path: '/api/pix/cash-out' });
    const resend = await h.api('POST', '/api/resend-webhook/%00', token);
    expect(resend.statusCode, resend.body).toBe(400);
    expect(resend.json().message).toEqual(['transactionIdentifier must not contain the NUL character (\\u0000)']);
    const list = await h.api('GET', '/api/transactions?externalId=a%00', token);
    expect(list.statusCode, list.body).toBe(400);
    const devolucao = await h.api('PUT', `/pix/E00000000202611201500abcdefghijk/devolucao/x1`, token, { valor: '1.00', descricao: 'x\u0000' });
    expect(devolucao.statusCode, devolucao.body).toBe(400);
    expect(devolucao.json()).toEqual({ statusCode: 400, message: ['descricao must not contain the NUL character (\\u0000)'], error: 'Bad Request' });
    const keyName = await h.admin('POST', '/admin/accounts', { name: 'Nome\u0000', document: '11144477735' });
    expect(keyName.statusCode, keyName.body).toBe(400);
    const nested = await h.api('POST', '/sandbox/deposits', token, { amount: 1, payer: { name: 'a\u0000', document: '11144477735', ispb: '00000000' } });
    expect(nested.statusCode, nested.body).toBe(400);
    expect(nested.json().message).toEqual(['payer.name must not contain the NUL character (\\u0000)']);
    expect(await h.balance(accountId)).toEqual({ available: 10, blocked: 0 });
  });
});

describe('deeply nested bodies', () => {
  it('answer 400, in each family, without exhausting the stack', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const send = (url: string, headers: Record<string, string>) =>
      h.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: deep });
    const api = await send('/api/pix/cash-out', { authorization: `Bearer ${token}` });
    expect(api.statusCode, api.body).toBe(400);
    const oauth = await send('/oauth/token', {});
    expect(oauth.statusCode, oauth.body).toBe(400);
    const admin = await send('/admin/accounts', { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(admin.statusCode, admin.body).toBe(400);
  });
});
