import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';

/**
 * A foreign id answers 404, never someone else's record, on every route that takes an id: account A
 * owns one of each resource; account B (with every scope) names each of them by every identifier.
 */
let h: Harness;
let a: { id: number; token: string };
let b: { id: number; token: string };
const own: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness();
  const accA = await h.createAccount({ funds: 500 });
  const accB = await h.createAccount({ funds: 500 });
  a = { id: accA.id, token: await h.tokenFor(accA.id) };
  b = { id: accB.id, token: await h.tokenFor(accB.id) };
  const received = (await h.api('POST', '/sandbox/deposits', a.token, { amount: 100 })).json();
  own.receivedId = String(received.id);
  own.receivedUuid = received.transactionId;
  own.receivedE2e = received.endToEndId;
  const charge = await h.api('POST', '/api/pix/cash-in', a.token, { transaction: { value: 10, description: 'd', externalId: 'charge-a' }, payer: { fullName: 'P', document: cpf(1) } }, { 'x-sandbox-scenario': 'pending' });
  own.chargeUuid = charge.json().transactionId;
  own.txid = 'foreignTxid000000000000000001';
  const cob = await h.api('PUT', `/cob/${own.txid}`, a.token, { calendario: { expiracao: 3600 }, valor: { original: '5.00' }, chave: accA.pixKey });
  expect(cob.statusCode, cob.body).toBe(201);
  expect((await h.api('PUT', `/pix/${own.receivedE2e}/devolucao/devA`, a.token, { valor: '1.00' })).statusCode).toBe(201);
  const payout = await h.api('POST', '/api/pix/cash-out', a.token, { value: 7, externalId: 'payout-a', details: { key: 'x@example.com', keyType: 'EMAIL', name: 'X', document: cpf(2) } });
  own.payoutUuid = payout.json().transactionId;
  const transfer = await h.api('POST', '/dict/pix', a.token, { pixKey: 'y@example.com', payment: { currency: 'BRL', amount: 2 } }, { 'x-idempotency-key': randomUUID() });
  own.transferId = String(transfer.json().id);
  await h.advance(2);
  own.payoutId = (await h.api('GET', `/api/pix/transaction/${own.payoutUuid}`, a.token)).json().id;
  own.payoutE2e = (await h.api('GET', `/api/pix/transaction/${own.payoutUuid}`, a.token)).json().e2eId;
  own.medId = String((await h.api('POST', '/sandbox/med', a.token, { endToEndId: own.receivedE2e, amount: 1 })).json().id);
});
afterAll(() => h.close());

const calls = (): Array<[string, 'GET' | 'POST' | 'PUT' | 'PATCH', string, unknown?]> => [
  ['poll by transactionId', 'GET', `/api/pix/transaction/${own.receivedUuid}`],
  ['poll by numeric id', 'GET', `/api/pix/transaction/${own.receivedId}`],
  ['poll by externalId', 'GET', '/api/pix/transaction/payout-a'],
  ['refund-in by transactionId', 'POST', `/api/pix/refund-in/${own.receivedUuid}`, { refundValue: 1 }],
  ['refund-in by numeric id', 'POST', `/api/pix/refund-in/${own.receivedId}`, { refundValue: 1 }],
  ['resend by numeric id', 'POST', `/api/resend-webhook/${own.payoutId}`],
  ['resend by transactionId', 'POST', `/api/resend-webhook/${own.payoutUuid}`],
  ['resend by externalId', 'POST', '/api/resend-webhook/payout-a'],
  ['resend by end-to-end id', 'POST', `/api/resend-webhook/${own.payoutE2e}`],
  ['GET cob', 'GET', `/cob/${own.txid}`],
  ['PATCH cob', 'PATCH', `/cob/${own.txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }],
  ['GET devolucao', 'GET', `/pix/${own.receivedE2e}/devolucao/devA`],
  ['PUT devolucao', 'PUT', `/pix/${own.receivedE2e}/devolucao/devB`, { valor: '1.00' }],
  ['GET dict/pix', 'GET', `/dict/pix/${own.transferId}`],
  ['sandbox pay a charge', 'POST', `/sandbox/charges/${own.chargeUuid}/pay`, {}],
  ['sandbox pay a cob', 'POST', `/sandbox/charges/${own.txid}/pay`, {}],
  ['sandbox payout refund', 'POST', `/sandbox/payouts/${own.payoutUuid}/refund`, { amount: 1 }],
  ['sandbox MED on a foreign PIX', 'POST', '/sandbox/med', { endToEndId: own.receivedE2e }],
  ['sandbox MED transition', 'POST', `/sandbox/med/${own.medId}/transition`, { to: 'RECEIVED' }],
];

describe('foreign ids answer 404', () => {
  it('on every route that takes an id, and nothing of the owner changes', async () => {
    const before = await h.balance(a.id);
    for (const [label, method, url, body] of calls()) {
      const res = await h.api(method, url, b.token, body);
      expect(res.statusCode, `${label}: ${res.body}`).toBe(404);
    }
    expect(await h.balance(a.id)).toEqual(before);
    expect((await h.api('GET', `/cob/${own.txid}`, a.token)).json().status).toBe('ATIVA');
    expect((await h.api('GET', `/api/pix/transaction/${own.chargeUuid}`, a.token)).json().status).toBe('PENDING');
    expect((await h.api('GET', '/api/med', a.token)).json().data[0].status).toBe('OPEN');
  });

  it('and the owner reaches each of them', async () => {
    for (const [label, method, url] of calls()) {
      if (method !== 'GET') continue;
      const res = await h.api(method, url, a.token);
      expect(res.statusCode, `${label}: ${res.body}`).toBe(200);
    }
  });
});
