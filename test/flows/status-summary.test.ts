import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeStaticBrCode } from '../../src/domain/brcode/encode.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';

/** Statuses of the spec's "Status summary per endpoint" that no feature suite exercised. */
let h: Harness;
let account: { id: number; pixKey: string };
let token: string;
beforeAll(async () => {
  h = await startHarness();
  account = await h.createAccount({ funds: 100 });
  token = await h.tokenFor(account.id);
});
afterAll(() => h.close());

const qr = () => encodeStaticBrCode({ key: 'loja@example.com', merchantName: 'Loja', merchantCity: 'SAO PAULO' });

describe('POST /api/pix/cash-out-qrcode', () => {
  it('500 when the provider cannot be reached: nothing stored, nothing held', async () => {
    const res = await h.api('POST', '/api/pix/cash-out-qrcode', token, { value: 3, qrCode: qr(), externalId: 'qr-down' }, { 'x-sandbox-scenario': 'error:provider-unavailable' });
    expect(res.statusCode, res.body).toBe(500);
    expect(res.json()).toMatchObject({ statusCode: 500, code: 'PROVIDER_UNAVAILABLE', errorCode: 'PROVIDER_UNAVAILABLE', path: '/api/pix/cash-out-qrcode' });
    expect(await h.balance(account.id)).toEqual({ available: 100, blocked: 0 });
    expect((await h.api('GET', '/api/transactions?externalId=qr-down', token)).json().data).toEqual([]);
    // The externalId was not used: the retry goes through.
    const retry = await h.api('POST', '/api/pix/cash-out-qrcode', token, { value: 3, qrCode: qr(), externalId: 'qr-down' });
    expect(retry.statusCode, retry.body).toBe(201);
  });

  it('an error scenario answers 201 PENDING and ends in ERROR with the money back', async () => {
    const res = await h.api('POST', '/api/pix/cash-out-qrcode', token, { value: 4, qrCode: qr(), externalId: 'qr-rejected' }, { 'x-sandbox-scenario': 'error:order-rejected' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().status).toBe('PENDING');
    await h.advance(2);
    const poll = (await h.api('GET', `/api/pix/transaction/${res.json().transactionId}`, token)).json();
    expect(poll).toMatchObject({ status: 'ERROR', e2eId: null });
    expect(await h.balance(account.id)).toEqual({ available: 97, blocked: 0 });
  });
});

describe('X-Sandbox-Scenario: an unknown value answers 400 listing the allowed ones, on every route that takes it', () => {
  it('cash-in, cash-out, cash-out-qrcode, refund-in and PUT /cob', async () => {
    const received = (await h.api('POST', '/sandbox/deposits', token, { amount: 10 })).json();
    const calls: Array<[string, 'POST' | 'PUT', string, unknown]> = [
      ['cash-in', 'POST', '/api/pix/cash-in', { transaction: { value: 1, description: 'd', externalId: 's1' }, payer: { fullName: 'P', document: cpf(1) } }],
      ['cash-out', 'POST', '/api/pix/cash-out', { value: 1, externalId: 's2', details: { key: 'a@example.com', keyType: 'EMAIL', name: 'A', document: cpf(2) } }],
      ['cash-out-qrcode', 'POST', '/api/pix/cash-out-qrcode', { value: 1, qrCode: qr(), externalId: 's3' }],
      ['refund-in', 'POST', `/api/pix/refund-in/${received.transactionId}`, { refundValue: 1 }],
      ['cob', 'PUT', '/cob/scenarioTxid0000000000000001', { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: account.pixKey }],
    ];
    const before = await h.balance(account.id);
    // `constructor` and `toString` are names every object inherits: not scenarios either.
    for (const value of ['error:bogus', 'constructor', 'toString']) {
      for (const [label, method, url, body] of calls) {
        const res = await h.api(method, url, token, body, { 'x-sandbox-scenario': value });
        expect(res.statusCode, `${label} ${value}: ${res.body}`).toBe(400);
        expect(JSON.stringify(res.json().message), `${label} ${value}`).toMatch(/error:insufficient-funds/);
      }
    }
    expect(await h.balance(account.id)).toEqual(before);
  });
});

describe('GET /api/med', () => {
  it('500 when the MED store fails: the /api envelope, a generic message, the errorId logged', async () => {
    await sql`ALTER TABLE meds RENAME TO meds_away`.execute(h.c.db);
    try {
      const res = await h.api('GET', '/api/med', token);
      expect(res.statusCode, res.body).toBe(500);
      const body = res.json();
      expect(body).toMatchObject({ statusCode: 500, code: 'HTTP_ERROR', error: 'Internal Server Error', path: '/api/med', method: 'GET', userMessage: expect.any(String) });
      expect(body.message).not.toMatch(/meds|relation|sql/i);
      expect(res.headers['x-request-id']).toBe(body.errorId);
      expect(h.logLines.some((line) => line.includes(body.errorId) && line.includes('unexpected error'))).toBe(true);
    } finally {
      await sql`ALTER TABLE meds_away RENAME TO meds`.execute(h.c.db);
    }
    expect((await h.api('GET', '/api/med', token)).statusCode).toBe(200);
  });
});
