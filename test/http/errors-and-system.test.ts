import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, ADMIN_TOKEN } from '../harness.ts';
import { cpf } from '../factories.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('error answers never leak a 500 for bad input', () => {
  it('an unknown route answers 404: the full envelope under /api, the short form elsewhere', async () => {
    const api = await h.app.inject({ method: 'GET', url: '/api/nope?x=1' });
    expect(api.statusCode).toBe(404);
    const body = api.json();
    expect(body).toMatchObject({ statusCode: 404, path: '/api/nope', method: 'GET', code: 'HTTP_ERROR', error: 'Not Found' });
    expect(body.userMessage).toMatch(/não foi encontrado/);
    expect(body.errorId).toBe(api.headers['x-request-id']);
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    const other = await h.app.inject({ method: 'GET', url: '/cob/nope/extra' });
    expect(other.statusCode).toBe(404);
    expect(Object.keys(other.json()).sort()).toEqual(['error', 'message', 'statusCode']);
  });

  it('malformed JSON answers 400', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/admin/accounts', headers: { ...admin, 'content-type': 'application/json' }, payload: '{"name": "x",' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message[0]).toMatch(/not valid JSON/);
  });

  it('a wrong content type answers 415', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/admin/accounts', headers: { ...admin, 'content-type': 'text/plain' }, payload: 'hello' });
    expect(res.statusCode).toBe(415);
  });

  it('a body over 1 MiB answers 413', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/admin/accounts',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024), document: cpf(1) }),
    });
    expect(res.statusCode).toBe(413);
  });

  it('schema failures give one text per invalid field', async () => {
    const res = await h.admin('POST', '/admin/accounts', { name: '', type: 'OTHER', document: 12 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual([
      'name must not be empty',
      'document must be a string',
      'type must be one of: INDIVIDUAL, COMPANY',
    ]);
  });

  it('a string is never taken for a number in a body, and a number JSON cannot hold exactly is refused', async () => {
    const { id } = await h.createAccount();
    const asString = await h.admin('PATCH', `/admin/accounts/${id}/limits`, { daily: '10' });
    expect(asString.statusCode).toBe(400);
    expect(asString.json().message).toEqual(['daily must be a number']);
    const inexact = await h.app.inject({
      method: 'PATCH',
      url: `/admin/accounts/${id}/limits`,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"daily": 10.0000000000000000001}',
    });
    expect(inexact.statusCode).toBe(400);
    expect(inexact.json().message[0]).toMatch(/cannot be represented exactly/);
    expect((await h.admin('GET', `/admin/accounts/${id}`)).json().limits.daily).toBe(20000);
  });

  it('a request id is on every answer', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/health' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('system routes', () => {
  it('GET /health answers ok (liveness: it never asks the database)', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /openapi.json is an OpenAPI 3.1 document generated from the route schemas', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/admin/accounts'].post.requestBody).toBeDefined();
    expect(doc.paths['/sandbox/deposits']).toBeDefined();
  });

  it('GET /docs serves the API reference', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });

  it('GET /metrics exposes request counts and latencies and job counts in Prometheus format', async () => {
    await h.app.inject({ method: 'GET', url: '/health' });
    const res = await h.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_requests_total{method="GET",route="/health",status="200"}');
    expect(res.body).toContain('http_request_duration_seconds_bucket');
    expect(res.body).toContain('# TYPE jobs_total counter');
  });
});

describe('sandbox deposits', () => {
  it('credit the account through a confirmed "Pix in" and record a cash_in event in the same transaction', async () => {
    const { id, pixKey } = await h.createAccount();
    const res = await h.admin('POST', '/sandbox/deposits', { accountId: id, value: 123.45, payer: { name: 'João', document: cpf(5), ispb: '60746948' } });
    expect(res.statusCode).toBe(201);
    const tx = res.json();
    expect(tx).toMatchObject({ type: 'PAYMENT', status: 'CONFIRMED', movementType: 'CREDIT', originalAmount: 123.45, finalAmount: 123.45 });
    expect(tx.endToEndId).toMatch(/^E60746948\d{12}[A-Za-z0-9]{11}$/);
    expect(tx.counterpart.document).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    expect(tx.counterpart.bank.bankName).toMatch(/Bradesco/i);
    expect(await h.balance(id)).toEqual({ available: 123.45, blocked: 0 });
    const events = await h.c.db.selectFrom('events').selectAll().where('account_id', '=', id).execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('cash_in');
    expect(events[0]!.payload).toMatchObject({ event: 'CashIn', status: 'CONFIRMED', movementType: 'CREDIT', pixKey, originalAmount: 123.45 });
  });

  it('apply the account cash-in fee and refuse bad input with 400', async () => {
    const { id } = await h.createAccount();
    await h.admin('PATCH', `/admin/accounts/${id}/fees`, { cashIn: { fixed: 0.5, percent: 1 } });
    const tx = (await h.admin('POST', '/sandbox/deposits', { accountId: id, value: 100 })).json();
    expect(tx).toMatchObject({ originalAmount: 100, feeAmount: 1.5, finalAmount: 98.5 });
    expect(await h.balance(id)).toEqual({ available: 98.5, blocked: 0 });
    expect((await h.admin('POST', '/sandbox/deposits', { accountId: id, value: 10.001 })).json().message).toEqual(['value must be a number with at most 2 decimal places']);
    expect((await h.admin('POST', '/sandbox/deposits', { value: 10 })).json().message).toEqual(['accountId is required when calling with the admin token']);
    expect((await h.admin('POST', '/sandbox/deposits', { accountId: 987654, value: 10 })).statusCode).toBe(404);
    const badPayer = await h.admin('POST', '/sandbox/deposits', { accountId: id, value: 1, payer: { name: 'x', document: '11111111111', ispb: '60746948' } });
    expect(badPayer.statusCode).toBe(400);
    expect(badPayer.json().message).toEqual(['payer.document must be a valid CPF (11 digits) or CNPJ (14 characters)']);
  });

  it('take value (as the API names amounts); amount stays an alias; exactly one of them (issue 21 item 6)', async () => {
    const { id } = await h.createAccount();
    const byAlias = await h.admin('POST', '/sandbox/deposits', { accountId: id, amount: 2.5 });
    expect(byAlias.statusCode, byAlias.body).toBe(201);
    expect(byAlias.json().originalAmount).toBe(2.5);
    const neither = await h.admin('POST', '/sandbox/deposits', { accountId: id });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().message).toEqual(['value is required (amount is accepted as its alias)']);
    const both = await h.admin('POST', '/sandbox/deposits', { accountId: id, value: 1, amount: 1 });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toEqual(['amount must not be sent with value (it is an alias of value: send one of them)']);
    expect((await h.admin('POST', '/sandbox/deposits', { accountId: id, amount: 10.001 })).json().message).toEqual(['amount must be a number with at most 2 decimal places']);
    expect(await h.balance(id)).toEqual({ available: 2.5, blocked: 0 });
    // The document says the same: both properties, exactly one required.
    const body = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths['/sandbox/deposits'].post.requestBody.content['application/json'];
    expect(Object.keys(body.schema.properties)).toEqual(expect.arrayContaining(['value', 'amount']));
    expect(body.schema.oneOf).toEqual([{ required: ['value'] }, { required: ['amount'] }]);
    expect(body.example).toMatchObject({ value: expect.any(Number) });
    expect(body.example.amount).toBeUndefined();
  });

  it('are refused without a token', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/sandbox/deposits', payload: { accountId: 1, amount: 1 } });
    expect(res.statusCode).toBe(401);
  });
});

describe('requests without a body', () => {
  it('are judged as an empty object: optional-only bodies accepted, required fields named', async () => {
    const { id } = await h.createAccount();
    const noBody = await h.app.inject({ method: 'POST', url: `/admin/accounts/${id}/credentials`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(noBody.statusCode).toBe(201);
    const required = await h.app.inject({ method: 'POST', url: '/admin/accounts', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(required.statusCode).toBe(400);
    expect(required.json().message).toEqual(['name is required', 'document is required']);
  });
});
