import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeDynamicBrCode, encodeStaticBrCode } from '../../src/domain/brcode/encode.ts';
import type { Cents } from '../../src/domain/money.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cpf } from '../factories.ts';
import { eventsOf, payer, txRow } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

let n = 0;
const ext = () => `qr-${++n}`;
const post = (token: string, body: unknown, headers: Record<string, string> = {}) => h.api('POST', '/api/pix/cash-out-qrcode', token, body, headers);
const staticCode = (key: string, amount?: number) =>
  encodeStaticBrCode({ key, merchantName: 'Padaria do Ze', merchantCity: 'SAO PAULO', ...(amount !== undefined ? { amount: Math.round(amount * 100) as Cents } : {}) });

describe('POST /api/pix/cash-out-qrcode', () => {
  it('a static code pays its key through the network: 201 PENDING, then CONFIRMED with the cash_out event', async () => {
    const a = await payer(h, 100);
    const res = await post(a.token, { value: 12.34, qrCode: staticCode('padaria@example.com', 12.34), externalId: ext() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'PENDING', externalId: `qr-${n}` });
    expect(await h.balance(a.id)).toEqual({ available: 87.66, blocked: 12.34 });
    await h.advance(1);
    const tx = await txRow(h, res.json().transactionId);
    expect(tx).toMatchObject({ status: 'CONFIRMED', origin: 'cash_out_qrcode', pix_key: 'padaria@example.com' });
    expect((tx.counterpart as any).name).toBe('PADARIA DO ZE');
    const [event] = await eventsOf(h, tx.transaction_id);
    expect(event).toMatchObject({ type: 'cash_out', payload: { event: 'CashOut', status: 'CONFIRMED', originalAmount: 12.34 } });
  });

  it('a static code without an amount takes the value; the scenario header applies', async () => {
    const a = await payer(h, 100);
    const res = await post(a.token, { value: 40, qrCode: staticCode('+5511987654321'), externalId: ext() }, { 'x-sandbox-scenario': 'error:account-closed' });
    expect(res.statusCode).toBe(201);
    await h.advance(1);
    expect((await txRow(h, res.json().transactionId)).error_code).toBe('ACCOUNT_CLOSED');
    expect(await h.balance(a.id)).toEqual({ available: 100, blocked: 0 });
  });

  it('refuses a value different from the embedded amount (400)', async () => {
    const a = await payer(h, 100);
    const res = await post(a.token, { value: 10, qrCode: staticCode('padaria@example.com', 12.34), externalId: ext() });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('PIX_QR_CODE_AMOUNT_MISMATCH');
  });

  it('validates length, prefix and the code itself (400)', async () => {
    const a = await payer(h, 100);
    const short = await post(a.token, { value: 1, qrCode: '000201' + 'x'.repeat(20), externalId: ext() });
    expect(short.json().message).toEqual(['qrCode must be at least 50 characters long']);
    const prefix = await post(a.token, { value: 1, qrCode: '999999' + 'x'.repeat(60), externalId: ext() });
    expect(prefix.json().message).toEqual(['qrCode has an invalid format']);
    const long = await post(a.token, { value: 1, qrCode: '000201' + 'x'.repeat(500), externalId: ext() });
    expect(long.statusCode).toBe(400);
    const good = staticCode('padaria@example.com', 1);
    const badCrc = good.slice(0, -4) + (good.endsWith('0000') ? '1111' : '0000');
    const crc = await post(a.token, { value: 1, qrCode: badCrc, externalId: ext() });
    expect(crc.statusCode).toBe(400);
    expect(crc.json()).toMatchObject({ code: 'PIX_INVALID_QR_CODE', message: expect.stringContaining('CRC') });
    const notFound = await post(a.token, { value: 1, qrCode: staticCode('x@notfound.example', 1), externalId: ext() });
    expect(notFound.json().code).toBe('PIX_INVALID_PIX_KEY');
  });

  it('a used externalId answers 409 naming the existing transaction', async () => {
    const a = await payer(h, 100);
    const body = { value: 1, qrCode: staticCode('padaria@example.com', 1), externalId: ext() };
    const first = await post(a.token, body);
    const again = await post(a.token, body);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ errorCode: 'PIX_DUPLICATE_EXTERNAL_ID', details: { externalId: body.externalId, existingTransactionId: first.json().transactionId } });
  });

  it('insufficient balance answers 400 PIX_INSUFFICIENT_BALANCE', async () => {
    const a = await payer(h, 5);
    const res = await post(a.token, { value: 6, qrCode: staticCode('padaria@example.com', 6), externalId: ext() });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('PIX_INSUFFICIENT_BALANCE');
  });

  it("a static code of another account's key pays on-us at once", async () => {
    const a = await payer(h, 100);
    const b = await h.createAccount({ document: cpf(31337) });
    const res = await post(a.token, { value: 7, qrCode: staticCode(b.pixKey, 7), externalId: ext() });
    expect(res.json().status).toBe('CONFIRMED');
    expect(await h.balance(b.id)).toEqual({ available: 7, blocked: 0 });
    expect(await h.balance(a.id)).toEqual({ available: 93, blocked: 0 });
  });

  it('a dynamic code of another institution settles through the network, with the body name/document as counterpart', async () => {
    const a = await payer(h, 100);
    const code = encodeDynamicBrCode({ url: 'pix.outrobanco.example/qr/v2/abc123', amount: 2500 as Cents, merchantName: 'Loja X', merchantCity: 'RIO' });
    const res = await post(a.token, { value: 25, qrCode: code, externalId: ext(), name: 'Loja X Ltda', document: cpf(55) });
    expect(res.statusCode).toBe(201);
    await h.advance(1);
    const tx = await txRow(h, res.json().transactionId);
    expect(tx.status).toBe('CONFIRMED');
    expect(tx.counterpart).toMatchObject({ name: 'Loja X Ltda', document: cpf(55) });
  });

  it('a dynamic code of ours pays that charge on-us; an unknown location of ours is 400', async () => {
    const a = await payer(h, 100);
    const b = await h.createAccount();
    const bToken = await h.tokenFor(b.id);
    const charge = await h.api('POST', '/api/pix/cash-in', bToken, {
      transaction: { value: 15, description: 'pedido 1', externalId: 'cobranca-1' },
      payer: { fullName: 'Cliente', document: cpf(8) },
    });
    expect(charge.statusCode).toBe(201);
    const res = await post(a.token, { value: 15, qrCode: charge.json().pixCode, externalId: ext() });
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe('CONFIRMED');
    expect(await h.balance(a.id)).toEqual({ available: 85, blocked: 0 });
    expect(await h.balance(b.id)).toEqual({ available: 15, blocked: 0 });
    const again = await post(a.token, { value: 15, qrCode: charge.json().pixCode, externalId: ext() });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('PIX_INVALID_QR_CODE');
    const unknown = encodeDynamicBrCode({ url: `${h.c.config.publicHost}/qr/v2/999999`, merchantName: 'X', merchantCity: 'Y' });
    const missing = await post(a.token, { value: 15, qrCode: unknown, externalId: ext() });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('PIX_INVALID_QR_CODE');
    expect(await h.balance(a.id)).toEqual({ available: 85, blocked: 0 });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
