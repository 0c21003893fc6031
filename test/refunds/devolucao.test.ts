import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { accountWithReceivedPix, eventsOf } from './refund-helpers.ts';

// The central bank's Devolucao schema (bacen-pix-api openapi.yaml), converted to JSON; no extra
// properties allowed, so a field the schema does not know fails too.
const devolucaoSchema = JSON.parse(readFileSync(new URL('./bacen-devolucao.schema.json', import.meta.url), 'utf8'));
delete devolucaoSchema.$comment;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validDevolucao = ajv.compile({ ...devolucaoSchema, additionalProperties: false });
const expectDevolucao = (body: unknown) => {
  const ok = validDevolucao(body);
  expect(validDevolucao.errors ?? [], JSON.stringify(body)).toEqual([]);
  expect(ok).toBe(true);
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const put = (e2e: string, id: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  h.api('PUT', `/pix/${e2e}/devolucao/${id}`, token, body, headers);
const get = (e2e: string, id: string, token: string) => h.api('GET', `/pix/${e2e}/devolucao/${id}`, token);

describe('PUT /pix/{e2eid}/devolucao/{id}', () => {
  it('answers 201 EM_PROCESSAMENTO, then DEVOLVIDO with liquidacao, valid against the Devolucao schema', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 80);
    const res = await put(pix.endToEndId, 'dev1', token, { valor: '12.34', natureza: 'ORIGINAL', descricao: 'Devolução do troco' });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expectDevolucao(created);
    expect(created).toEqual({
      id: 'dev1',
      rtrId: expect.stringMatching(/^D99999999\d{12}[A-Za-z0-9]{11}$/),
      valor: '12.34',
      natureza: 'ORIGINAL',
      descricao: 'Devolução do troco',
      horario: { solicitacao: h.clock.now().toISOString() },
      status: 'EM_PROCESSAMENTO',
    });
    expect(await h.balance(account.id)).toEqual({ available: 67.66, blocked: 12.34 });
    const pending = await get(pix.endToEndId, 'dev1', token);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual(created);

    await h.advance(2);
    const done = (await get(pix.endToEndId, 'dev1', token)).json();
    expectDevolucao(done);
    expect(done).toMatchObject({ status: 'DEVOLVIDO', rtrId: created.rtrId, horario: { solicitacao: created.horario.solicitacao, liquidacao: h.clock.now().toISOString() } });
    expect(await h.balance(account.id)).toEqual({ available: 67.66, blocked: 0 });

    // The version-2 REFUND event, on the refund_in URLs.
    const [event] = await eventsOf(h, account.id, 'refund_in');
    expect(event!.payload).toEqual({
      type: 'REFUND',
      data: {
        id: pix.id,
        txId: null,
        status: 'REFUNDED',
        payment: { amount: '80.00', currency: 'BRL' },
        refunds: [
          {
            id: 'dev1',
            status: 'LIQUIDATED',
            payment: { amount: 12.34, currency: 'BRL' },
            endToEndId: created.rtrId,
            eventDate: h.clock.now().toISOString(),
            information: 'Devolução do troco',
          },
        ],
        endToEndId: pix.endToEndId,
        creditDebitType: 'DEBIT',
      },
    });
  });

  it('reports NAO_REALIZADO with motivo when the network rejects, and frees the amount', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 20);
    const res = await put(pix.endToEndId, 'dev2', token, { valor: '20.00', natureza: 'RETIRADA' }, { 'x-sandbox-scenario': 'error:account-closed' });
    expect(res.statusCode).toBe(201);
    await h.advance(2);
    const failed = (await get(pix.endToEndId, 'dev2', token)).json();
    expectDevolucao(failed);
    expect(failed).toMatchObject({ status: 'NAO_REALIZADO', natureza: 'RETIRADA', motivo: 'A conta de destino está encerrada.' });
    expect(failed.horario.liquidacao).toBeUndefined();
    expect(await h.balance(account.id)).toEqual({ available: 20, blocked: 0 });
    const [event] = await eventsOf(h, account.id, 'refund_in');
    expect(event!.payload.data).toMatchObject({ status: 'ERROR', refunds: [{ status: 'ERROR', errorCode: 'ACCOUNT_CLOSED' }] });
    expect((await put(pix.endToEndId, 'dev3', token, { valor: '20.00' })).statusCode).toBe(201);
  });

  it('validates path and body in the short error form', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 20);
    const cases: Array<[string, string, unknown, string]> = [
      [pix.endToEndId.slice(1), 'a1', { valor: '1.00' }, 'e2eid has an invalid format'],
      [pix.endToEndId + 'X', 'a1', { valor: '1.00' }, 'e2eid has an invalid format'],
      [pix.endToEndId, 'x'.repeat(36), { valor: '1.00' }, 'id has an invalid format'],
      [pix.endToEndId, 'a-1', { valor: '1.00' }, 'id has an invalid format'],
      [pix.endToEndId, 'a1', { valor: '1.0' }, 'valor must be an amount from 0.01 to 999999999.99 written with two decimals (e.g. "10.00")'],
      [pix.endToEndId, 'a1', { valor: '1000000000.00' }, 'valor must be an amount from 0.01 to 999999999.99 written with two decimals (e.g. "10.00")'],
      [pix.endToEndId, 'a1', { valor: '9999999999.99' }, 'valor must be an amount from 0.01 to 999999999.99 written with two decimals (e.g. "10.00")'],
      [pix.endToEndId, 'a1', { valor: 1 }, 'valor must be a string'],
      [pix.endToEndId, 'a1', { valor: '0.00' }, 'valor must be an amount from 0.01 to 999999999.99 written with two decimals (e.g. "10.00")'],
      [pix.endToEndId, 'a1', { valor: '1.00', natureza: 'MED_FRAUDE' }, 'natureza must be one of: ORIGINAL, RETIRADA'],
      [pix.endToEndId, 'a1', { valor: '1.00', natureza: 'MED_OPERACIONAL' }, 'natureza must be one of: ORIGINAL, RETIRADA'],
      [pix.endToEndId, 'a1', { valor: '1.00', descricao: 'x'.repeat(141) }, 'descricao must be at most 140 characters long'],
    ];
    for (const [e2e, id, body, message] of cases) {
      const res = await put(e2e, id, token, body);
      expect(res.statusCode, message).toBe(400);
      const json = res.json();
      expect(json).toEqual({ statusCode: 400, message: expect.any(Array), error: 'Bad Request' });
      expect(json.message).toContain(message);
    }
    expect((await put(pix.endToEndId, 'x'.repeat(35), token, { valor: '1.00', descricao: 'x'.repeat(140) })).statusCode).toBe(201);
  });

  it('answers 400 over the refundable amount, counting refunds of both families', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 50);
    expect((await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, token, { refundValue: 30 })).statusCode).toBe(201);
    const over = await put(pix.endToEndId, 'b1', token, { valor: '20.01' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ statusCode: 400, message: expect.stringContaining('refundable'), error: 'Bad Request' });
    expect((await put(pix.endToEndId, 'b1', token, { valor: '20.00' })).statusCode).toBe(201);
    const publicOver = await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, token, { refundValue: 0.01 });
    expect(publicOver.json().code).toBe('PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE');
  });

  it('answers 404 for an unknown e2eid, a foreign PIX, a refund id, and an unknown devolucao', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 50);
    const other = await accountWithReceivedPix(h, 50);
    const unknown = 'E99999999202611201500AAAAAAAAAAA';
    for (const e2e of [unknown, other.pix.endToEndId]) {
      const res = await put(e2e, 'c1', token, { valor: '1.00' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, message: expect.any(String), error: 'Not Found' });
    }
    const created = (await put(pix.endToEndId, 'c1', token, { valor: '1.00' })).json();
    // A refund (a D id) is not a received PIX.
    expect((await put(created.rtrId, 'c2', token, { valor: '1.00' })).statusCode).toBe(404);
    expect((await get(pix.endToEndId, 'zz9', token)).statusCode).toBe(404);
    expect((await get(other.pix.endToEndId, 'c1', token)).statusCode).toBe(404);
    expect((await get(pix.endToEndId, 'c1', other.token)).statusCode).toBe(404);
  });

  it('answers 409 for an id already used for the same PIX; another PIX may reuse it', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 50);
    const second = (await h.deposit(account.id, 10)) as { endToEndId: string };
    expect((await put(pix.endToEndId, 'same1', token, { valor: '1.00' })).statusCode).toBe(201);
    const again = await put(pix.endToEndId, 'same1', token, { valor: '1.00' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ statusCode: 409, message: expect.any(String), error: 'Conflict' });
    expect((await put(second.endToEndId, 'same1', token, { valor: '1.00' })).statusCode).toBe(201);
  });

  it('finds a public refund-in by its externalId as the devolucao id', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 50);
    const made = (await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, token, { refundValue: 5, externalId: 'pub77', reason: 'motivo' })).json();
    const found = await get(pix.endToEndId, 'pub77', token);
    expect(found.statusCode).toBe(200);
    expectDevolucao(found.json());
    expect(found.json()).toMatchObject({ id: 'pub77', rtrId: made.providerTransactionId, valor: '5.00', descricao: 'motivo' });
    expect((await put(pix.endToEndId, 'pub77', token, { valor: '1.00' })).statusCode).toBe(409);
  });

  it('answers 422 past the 89-day deadline', async () => {
    const { account, pix } = await accountWithReceivedPix(h, 50);
    await h.advance(89 * 86_400 + 1);
    const token = await h.tokenFor(account.id);
    const late = await put(pix.endToEndId, 'late1', token, { valor: '1.00' });
    expect(late.statusCode).toBe(422);
    expect(late.json()).toEqual({ statusCode: 422, message: expect.stringContaining('deadline'), error: 'Unprocessable Entity' });
  });

  it('needs pix:write to ask and pix:read to look up', async () => {
    const { account, pix } = await accountWithReceivedPix(h, 50);
    const readOnly = await h.tokenFor(account.id, ['pix:read']);
    const writeOnly = await h.tokenFor(account.id, ['pix:write']);
    expect((await put(pix.endToEndId, 'auth1', readOnly, { valor: '1.00' })).statusCode).toBe(403);
    expect((await put(pix.endToEndId, 'auth1', writeOnly, { valor: '1.00' })).statusCode).toBe(201);
    expect((await get(pix.endToEndId, 'auth1', writeOnly)).statusCode).toBe(403);
    expect((await get(pix.endToEndId, 'auth1', readOnly)).statusCode).toBe(200);
    const anonymous = await h.app.inject({ method: 'GET', url: `/pix/${pix.endToEndId}/devolucao/auth1` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ statusCode: 401, message: expect.any(String), error: 'Unauthorized' });
  });
});
