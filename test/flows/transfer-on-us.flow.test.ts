import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { Harness } from '../harness.ts';
import { balances, deliverAll, ISO, MASKED_CPF, subscribe, transactionsOf, type FlowReceiver, useFlowEnvironment } from './flow-kit.ts';

let h: Harness;
let rx: FlowReceiver;
useFlowEnvironment((env) => ({ h, rx } = env));

describe('flow: direct transfer with a replayed idempotency key', () => {
  it('one transfer, one hold, one TRANSFER v2 webhook', async () => {
    const account = await h.createAccount({ name: 'Transferidora', funds: 200 });
    const token = await h.tokenFor(account.id);
    const hooks = await subscribe(h, rx, account.id);
    const key = randomUUID();
    const body = { pixKey: 'aluguel@example.com', creditorDocument: cpf(9090), priority: 'HIGH', description: 'aluguel novembro', payment: { currency: 'BRL', amount: 75.5 } };
    const first = await h.api('POST', '/dict/pix', token, body, { 'x-idempotency-key': key });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ type: 'PENDING', endToEndId: key, payment: { amount: 75.5 }, eventDate: expect.stringMatching(ISO) });
    const replay = await h.api('POST', '/dict/pix', token, body, { 'x-idempotency-key': key });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect(await balances(h, token)).toEqual({ available: 124.5, blocked: 75.5 });

    await h.advance(2);
    await deliverAll(h);
    // A replay after settlement still answers the first answer and moves nothing.
    const late = await h.api('POST', '/dict/pix', token, body, { 'x-idempotency-key': key });
    expect(late.json()).toEqual(first.json());
    expect(await balances(h, token)).toEqual({ available: 124.5, blocked: 0 });
    const got = (await h.api('GET', `/dict/pix/${first.json().id}`, token)).json();
    expect(got).toMatchObject({ id: first.json().id, type: 'COMPLETED', endToEndId: expect.stringMatching(/^E99999999/) });

    const transfers = hooks.bodies('cash_out');
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toEqual({
      type: 'TRANSFER',
      data: {
        id: first.json().id,
        txId: null,
        pixKey: 'aluguel@example.com',
        status: 'LIQUIDATED',
        payment: { amount: '75.50', currency: 'BRL' },
        endToEndId: got.endToEndId,
        creditDebitType: 'DEBIT',
        idempotencyKey: key,
        creditorAccount: { name: expect.any(String), document: expect.stringMatching(MASKED_CPF), ispb: expect.stringMatching(/^\d{8}$/) },
        remittanceInformation: 'aluguel novembro',
      },
    });
    const txs = await transactionsOf(h, token, '&type=WITHDRAW');
    expect(txs.list).toHaveLength(1);
    expect(txs.list[0]).toMatchObject({ status: 'Confirmado', finalAmount: 75.5, endToEndId: got.endToEndId });
  });
});

describe('flow: on-us payments between two accounts of ours', () => {
  it('by key, by the dynamic QR code of the other account\'s charge and by /dict/pix: both sides notified, both balances move at once', async () => {
    const payerDoc = cpf(5150);
    const receiverDoc = cpf(6160);
    const a = await h.createAccount({ name: 'Conta Pagadora', document: payerDoc, funds: 300 });
    const b = await h.createAccount({ name: 'Conta Recebedora', document: receiverDoc });
    const aToken = await h.tokenFor(a.id);
    const bToken = await h.tokenFor(b.id);
    const aHooks = await subscribe(h, rx, a.id);
    const bHooks = await subscribe(h, rx, b.id);

    // By key: the receiver's EVP key, with its holder's document.
    const byKey = await h.api('POST', '/api/pix/cash-out', aToken, {
      value: 40,
      externalId: 'onus-key',
      details: { key: b.pixKey, keyType: 'RANDOM', name: 'Conta Recebedora', document: receiverDoc },
    });
    expect(byKey.statusCode, byKey.body).toBe(201);
    await deliverAll(h);
    expect(await balances(h, aToken)).toEqual({ available: 260, blocked: 0 });
    expect(await balances(h, bToken)).toEqual({ available: 40, blocked: 0 });
    const [out1] = aHooks.bodies('cash_out');
    const [in1] = bHooks.bodies('cash_in');
    expect(out1).toMatchObject({ event: 'CashOut', status: 'CONFIRMED', externalId: 'onus-key', originalAmount: 40, pixKey: b.pixKey, counterpart: { name: 'Conta Recebedora', document: expect.stringMatching(MASKED_CPF), bank: { bankISPB: '99999999' } } });
    expect(in1).toMatchObject({ event: 'CashIn', status: 'CONFIRMED', movementType: 'CREDIT', originalAmount: 40, pixKey: b.pixKey, endToEndId: out1.endToEndId, counterpart: { name: 'Conta Pagadora', document: expect.stringMatching(MASKED_CPF) } });

    // By the dynamic QR code of B's charge: the charge is paid, B gets its CashIn.
    const charge = await h.api('POST', '/api/pix/cash-in', bToken, {
      transaction: { value: 55.55, description: 'pedido on-us', externalId: 'cobranca-onus' },
      payer: { fullName: 'Conta Pagadora', document: payerDoc },
    }, { 'x-sandbox-scenario': 'pending' });
    expect(charge.statusCode, charge.body).toBe(201);
    const byQr = await h.api('POST', '/api/pix/cash-out-qrcode', aToken, { value: 55.55, qrCode: charge.json().pixCode, externalId: 'onus-qr' });
    expect(byQr.statusCode, byQr.body).toBe(201);
    await deliverAll(h);
    expect(await balances(h, aToken)).toEqual({ available: 204.45, blocked: 0 });
    expect(await balances(h, bToken)).toEqual({ available: 95.55, blocked: 0 });
    const out2 = aHooks.bodies('cash_out')[1];
    const in2 = bHooks.bodies('cash_in')[1];
    expect(out2).toMatchObject({ event: 'CashOut', status: 'CONFIRMED', externalId: 'onus-qr', originalAmount: 55.55 });
    expect(in2).toMatchObject({ event: 'CashIn', status: 'CONFIRMED', transactionId: charge.json().transactionId, externalId: 'cobranca-onus', originalAmount: 55.55, endToEndId: out2.endToEndId });
    expect(aHooks.bodies('cash_out')).toHaveLength(2);
    expect(bHooks.bodies('cash_in')).toHaveLength(2);
    expect(aHooks.bodies('cash_in')).toHaveLength(0);
    expect(bHooks.bodies('cash_out')).toHaveLength(0);

    // Both lists agree with the webhooks.
    const aTxs = await transactionsOf(h, aToken);
    expect(aTxs.byId.get(byQr.json().transactionId)).toMatchObject({ operationType: 'Pix out', status: 'Confirmado', finalAmount: 55.55 });
    const bTxs = await transactionsOf(h, bToken);
    expect(bTxs.byId.get(charge.json().transactionId)).toMatchObject({ operationType: 'Pix in', status: 'Confirmado', finalAmount: 55.55, endToEndId: out2.endToEndId });
    expect(bTxs.list.filter((t) => t.operationType === 'Pix in')).toHaveLength(2);
    // By /dict/pix to B's key: TRANSFER v2 to A's cash_out URL, CashIn to B's cash_in URL.
    const key = randomUUID();
    const direct = await h.api('POST', '/dict/pix', aToken, { pixKey: b.pixKey, creditorDocument: receiverDoc, priority: 'HIGH', payment: { currency: 'BRL', amount: 4.45 } }, { 'x-idempotency-key': key });
    expect(direct.statusCode, direct.body).toBe(201);
    await h.advance(2);
    await deliverAll(h);
    expect(await balances(h, aToken)).toEqual({ available: 200, blocked: 0 });
    expect(await balances(h, bToken)).toEqual({ available: 100, blocked: 0 });
    const transfer = aHooks.bodies('cash_out')[2];
    expect(transfer).toMatchObject({ type: 'TRANSFER', data: { id: direct.json().id, status: 'LIQUIDATED', payment: { amount: '4.45' }, idempotencyKey: key, creditorAccount: { name: 'Conta Recebedora', document: expect.stringMatching(MASKED_CPF), ispb: '99999999' } } });
    const in3 = bHooks.bodies('cash_in')[2];
    expect(in3).toMatchObject({ event: 'CashIn', status: 'CONFIRMED', originalAmount: 4.45, endToEndId: transfer.data.endToEndId, counterpart: { name: 'Conta Pagadora' } });

    // Nothing is left for the scheduler to settle twice.
    await h.advance(5);
    await deliverAll(h);
    expect(await balances(h, aToken)).toEqual({ available: 200, blocked: 0 });
    expect(await balances(h, bToken)).toEqual({ available: 100, blocked: 0 });
    expect(bHooks.bodies('cash_in')).toHaveLength(3);
    expect(aHooks.bodies('cash_out')).toHaveLength(3);
  });
});

describe('ledger invariant', () => {
  it('the postings of every account still sum to its balances', async () => {
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
