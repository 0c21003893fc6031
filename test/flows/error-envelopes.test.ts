import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { cpf } from '../factories.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';

/**
 * The error formats of the interface spec (Errors) and decisions 4.15, on every route: the full
 * envelope on /api, the short form on the compatible family, admin and sandbox.
 */
let h: Harness;
let token: string;
let readOnly: string;
beforeAll(async () => {
  h = await startHarness();
  const account = await h.createAccount({ funds: 5 });
  token = await h.tokenFor(account.id);
  readOnly = await h.tokenFor(account.id, ['pix:read']);
});
afterAll(() => h.close());

const API_ROUTES: Array<['GET' | 'POST', string]> = [
  ['GET', '/api/balance'],
  ['POST', '/api/pix/cash-in'],
  ['POST', '/api/pix/cash-out'],
  ['POST', '/api/pix/cash-out-qrcode'],
  ['GET', '/api/pix/transaction/1'],
  ['POST', '/api/pix/refund-in/1'],
  ['GET', '/api/transactions'],
  ['GET', '/api/med'],
  ['POST', '/api/webhooks'],
  ['GET', '/api/webhooks'],
  ['POST', '/api/resend-webhook/1'],
];
const COMPATIBLE_ROUTES: Array<['GET' | 'POST' | 'PUT' | 'PATCH', string]> = [
  ['GET', '/accounts/balances'],
  ['POST', '/dict/pix'],
  ['GET', '/dict/pix/1'],
  ['PUT', '/cob/envelopeTxid00000000000000001'],
  ['GET', '/cob/envelopeTxid00000000000000001'],
  ['PATCH', '/cob/envelopeTxid00000000000000001'],
  ['PUT', '/pix/E00000000202611201500abcdefghijk/devolucao/d1'],
  ['GET', '/pix/E00000000202611201500abcdefghijk/devolucao/d1'],
];

function expectFullEnvelope(res: LightMyRequestResponse, status: number, path: string, method: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(
    expect.arrayContaining(['code', 'error', 'errorId', 'message', 'method', 'path', 'statusCode', 'timestamp', 'userMessage']),
  );
  expect(body).toMatchObject({ statusCode: status, path, method, timestamp: h.clock.now().toISOString() });
  expect(typeof body.code).toBe('string');
  expect(typeof body.userMessage).toBe('string');
  expect(body.userMessage.length).toBeGreaterThan(0);
  expect(typeof body.error).toBe('string');
  expect(typeof body.message === 'string' || (Array.isArray(body.message) && body.message.every((m: unknown) => typeof m === 'string'))).toBe(true);
  expect(res.headers['x-request-id']).toBe(body.errorId);
  // errorCode on business errors only, equal to the code; details, when present, an object.
  if (body.code === 'HTTP_ERROR') expect(body.errorCode).toBeUndefined();
  else expect(typeof body.errorCode).toBe('string');
  if ('details' in body) expect(typeof body.details).toBe('object');
  const allowed = ['statusCode', 'timestamp', 'path', 'method', 'code', 'message', 'userMessage', 'errorId', 'error', 'errorCode', 'details'];
  expect(Object.keys(body).filter((k) => !allowed.includes(k))).toEqual([]);
  return body;
}

function expectShortForm(res: LightMyRequestResponse, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
  expect(body.statusCode).toBe(status);
  return body;
}

describe('/api errors: the full envelope', () => {
  it('401 on every route, with the token userMessage', async () => {
    for (const [method, url] of API_ROUTES) {
      for (const authorization of [undefined, 'Bearer nope', `Basic ${Buffer.from('a:b').toString('base64')}`]) {
        const res = await h.app.inject({ method, url: `${url}?q=1`, headers: authorization ? { authorization } : {} });
        const body = expectFullEnvelope(res, 401, url, method);
        expect(body).toMatchObject({ code: 'HTTP_ERROR', error: 'Unauthorized', userMessage: expect.stringMatching(/token/i) });
      }
    }
  });

  it('403 and 400 (validation: message is an array) on every route that takes input', async () => {
    for (const [method, url] of API_ROUTES) {
      if (method === 'POST' && url !== '/api/webhooks' && url !== '/api/resend-webhook/1') {
        expectFullEnvelope(await h.api(method, url, readOnly, {}), 403, url, method);
        const bad = expectFullEnvelope(await h.api(method, url, token, { value: 'x', refundValue: 'x', transaction: 1 }), 400, url, method);
        expect(Array.isArray(bad.message)).toBe(true);
      }
    }
    const list = expectFullEnvelope(await h.api('GET', '/api/transactions?size=0', token), 400, '/api/transactions', 'GET');
    expect(list.message).toEqual(['size must be greater than or equal to 1']);
  });

  it('404, 415, 413 and an unknown /api route', async () => {
    expectFullEnvelope(await h.api('GET', '/api/pix/transaction/999999', token), 404, '/api/pix/transaction/999999', 'GET');
    expectFullEnvelope(await h.api('POST', '/api/pix/refund-in/999999', token, { refundValue: 1 }), 404, '/api/pix/refund-in/999999', 'POST');
    expectFullEnvelope(await h.api('POST', '/api/resend-webhook/999999', token), 404, '/api/resend-webhook/999999', 'POST');
    expectFullEnvelope(await h.api('GET', '/api/nothing-here', token), 404, '/api/nothing-here', 'GET');
    const text = await h.app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, payload: 'x' });
    expectFullEnvelope(text, 415, '/api/pix/cash-out', 'POST');
    const big = await h.app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify({ x: 'y'.repeat(1_100_000) }) });
    expectFullEnvelope(big, 413, '/api/pix/cash-out', 'POST');
  });

  it('business errors carry errorCode equal to code, and details where the spec names them', async () => {
    const body = { value: 50, externalId: 'big-one', details: { key: 'a@example.com', keyType: 'EMAIL', name: 'A', document: cpf(3) } };
    const poor = expectFullEnvelope(await h.api('POST', '/api/pix/cash-out', token, body), 400, '/api/pix/cash-out', 'POST');
    expect(poor).toMatchObject({ code: 'PIX_INSUFFICIENT_BALANCE', errorCode: 'PIX_INSUFFICIENT_BALANCE' });
    expect((await h.api('POST', '/api/pix/cash-out', token, { ...body, value: 1, externalId: 'once' })).statusCode).toBe(201);
    const dup = expectFullEnvelope(await h.api('POST', '/api/pix/cash-out', token, { ...body, value: 1, externalId: 'once' }), 400, '/api/pix/cash-out', 'POST');
    expect(dup).toMatchObject({ code: 'PIX_DUPLICATE_EXTERNAL_ID', errorCode: 'PIX_DUPLICATE_EXTERNAL_ID', details: { externalId: 'once', existingTransactionId: expect.any(String) } });
    const cert = expectFullEnvelope(
      await h.app.inject({ method: 'POST', url: '/api/auth/token', payload: { clientId: 'x', clientSecret: 'y' } }),
      400,
      '/api/auth/token',
      'POST',
    );
    expect(cert).toMatchObject({ code: 'PUB_CERT_HEADER_MISSING', errorCode: 'PUB_CERT_HEADER_MISSING', details: { hint: expect.any(String) } });
  });
});

describe('compatible family, admin and sandbox: the short form', () => {
  it('401 without a token and 403 without the scope on every compatible route', async () => {
    for (const [method, url] of COMPATIBLE_ROUTES) {
      expectShortForm(await h.app.inject({ method, url, payload: {} }), 401);
      const scoped = await h.api(method, url, await h.tokenFor((await h.createAccount()).id, ['webhook:read']), method === 'GET' ? undefined : {});
      expectShortForm(scoped, 403);
    }
  });

  it('400 validation (message array), 404 and 422', async () => {
    const v = expectShortForm(await h.api('PUT', '/cob/short', token, {}), 400);
    expect(Array.isArray(v.message)).toBe(true);
    expectShortForm(await h.api('GET', '/cob/envelopeTxid00000000000000404', token), 404);
    const notFound = await h.api('POST', '/dict/pix', token, { pixKey: 'ninguem@notfound.example', payment: { currency: 'BRL', amount: 1 } }, { 'x-idempotency-key': '7d3f6c2e-8a51-4b0e-9f2d-1c3b5a7e9d01' });
    expectShortForm(notFound, 422);
    expectShortForm(await h.app.inject({ method: 'GET', url: '/admin/accounts/1' }), 401);
    expectShortForm(await h.admin('GET', '/admin/accounts/999999'), 404);
    expectShortForm(await h.app.inject({ method: 'POST', url: '/sandbox/deposits', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: {} }), 400);
    expectShortForm(await h.app.inject({ method: 'GET', url: '/nothing-here' }), 404);
  });
});

/**
 * Issue 17 item 2: every /api route, read from the OpenAPI document so a new route is walked too, answers
 * its validation errors in the full envelope. Each part a route validates gets a value its schema refuses.
 */
describe('/api validation errors: every route, walked from the OpenAPI document', () => {
  type ParamSchema = { type?: string; minimum?: number; maxLength?: number; pattern?: string; format?: string; anyOf?: unknown[]; enum?: unknown[] };
  const refused = (schema: ParamSchema): string => {
    if (schema.type === 'integer' || schema.type === 'number') return 'not-a-number';
    if (schema.type === 'boolean') return 'maybe';
    if (schema.anyOf || schema.enum) return 'NOT_ONE_OF_THEM';
    if (schema.format) return 'not-a-valid-value';
    if (schema.maxLength !== undefined) return 'x'.repeat(schema.maxLength + 1);
    return '';
  };

  it('answers 400 in the full envelope, naming the field, on each route that takes input', async () => {
    const doc = h.app.swagger() as { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; schema: ParamSchema }>; requestBody?: unknown }>> };
    const walked: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/')) continue;
      for (const [lower, op] of Object.entries(operations)) {
        const method = lower.toUpperCase() as 'GET' | 'POST';
        const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
        const requests: Array<{ url: string; body?: unknown; field: string }> = [];
        const fill = (value?: string) => path.replace(/\{(\w+)\}/g, () => value ?? '1');
        for (const p of params) {
          const bad = refused(p.schema);
          if (bad === '') continue;
          if (p.in === 'path') requests.push({ url: path.replace(`{${p.name}}`, encodeURIComponent(bad)).replace(/\{(\w+)\}/g, '1'), field: p.name });
          else requests.push({ url: `${fill()}?${p.name}=${encodeURIComponent(bad)}`, field: p.name });
        }
        // A JSON body that is not an object fails any object schema, required fields or not.
        if (op.requestBody) requests.push({ url: fill(), body: ['not', 'an', 'object'], field: 'body' });
        if (requests.length === 0) continue;
        walked.push(`${method} ${path}`);
        for (const request of requests) {
          const headers: Record<string, string> = path === '/api/auth/token' ? {} : { authorization: `Bearer ${token}` };
          const res = await h.app.inject({ method, url: request.url, headers, ...(request.body ? { payload: request.body as object } : {}) });
          const label = `${method} ${request.url}`;
          expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
          const body = expectFullEnvelope(res, 400, request.url.split('?')[0]!, method);
          const texts = ([] as string[]).concat(body.message, body.details?.violations?.map((v: { field: string }) => v.field) ?? []);
          // /api/auth/token checks its header first (decisions 4.15): its 400 names the header.
          if (path !== '/api/auth/token') expect(texts.some((t) => t.startsWith(request.field)), `${label}: ${JSON.stringify(body.message)}`).toBe(true);
        }
      }
    }
    // The routes that take input: all of them were walked.
    expect(walked.sort()).toEqual([
      'GET /api/events',
      'GET /api/events/stream',
      'GET /api/events/{id}',
      'GET /api/med',
      'GET /api/pix/transaction/{id}',
      'GET /api/transactions',
      'POST /api/auth/token',
      'POST /api/pix/cash-in',
      'POST /api/pix/cash-out',
      'POST /api/pix/cash-out-qrcode',
      'POST /api/pix/refund-in/{id}',
      'POST /api/resend-webhook/{transactionIdentifier}',
      'POST /api/webhook-deliveries/replay',
    ]);
  });
});

describe('/api answers the router refuses before any route', () => {
  it('a path value over the router limit or badly percent-encoded: the full envelope, with X-Request-Id', async () => {
    // An externalId may be 255 characters: polling it reaches the route (404 here), not a router 414.
    const long = 'e'.repeat(255);
    expectFullEnvelope(await h.api('GET', `/api/pix/transaction/${long}`, token), 404, `/api/pix/transaction/${long}`, 'GET');
    const huge = 'e'.repeat(3000);
    const tooLong = expectFullEnvelope(await h.api('GET', `/api/pix/transaction/${huge}`, token), 414, `/api/pix/transaction/${huge}`, 'GET');
    expect(tooLong.code).toBe('HTTP_ERROR');
    const badUrl = expectFullEnvelope(await h.api('GET', '/api/pix/transaction/%E0%A4%A', token), 400, '/api/pix/transaction/%E0%A4%A', 'GET');
    expect(badUrl.code).toBe('HTTP_ERROR');
    expectShortForm(await h.api('GET', `/cob/${huge}`, token), 414);
  });
});
