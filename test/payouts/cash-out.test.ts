import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import { SCENARIO_REJECTIONS } from '../../src/domain/sandbox-scenarios.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cnpj, cpf } from '../factories.ts';
import { cashOutBody, eventsOf, payer, txRow } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const post = (token: string, body: unknown, headers: Record<string, string> = {}) => h.api('POST', '/api/pix/cash-out', token, body, headers);

describe('POST /api/pix/cash-out', () => {
  it('needs a token with pix:write', async () => {
    const a = await payer(h);
    const anonymous = await h.app.inject({ method: 'POST', url: '/api/pix/cash-out', payload: cashOutBody() });
    expect(anonymous.statusCode).toBe(401);
    const readOnly = await h.tokenFor(a.id, ['pix:read']);
    const res = await post(readOnly, cashOutBody());
    expect(res.statusCode).toBe(403);
  });

  it('holds the amount, answers 201 PENDING, then settles: CONFIRMED, blocked released, CashOut event', async () => {
    const a = await payer(h, 100);
    const body = cashOutBody({ value: 25.5 });
    const res = await post(a.token, body);
    expect(res.statusCode).toBe(201);
    const out = res.json();
    expect(out).toEqual({ transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/), externalId: body.externalId, status: 'PENDING', generateTime: '2026-11-20T15:00:00.000Z' });
    expect(await h.balance(a.id)).toEqual({ available: 74.5, blocked: 25.5 });
    await h.advance(1);
    expect(await h.balance(a.id)).toEqual({ available: 74.5, blocked: 0 });
    const tx = await txRow(h, out.transactionId);
    expect(tx.status).toBe('CONFIRMED');
    expect(tx.end_to_end_id).toMatch(/^E99999999\d{12}[A-Za-z0-9]{11}$/);
    const events = await eventsOf(h, out.transactionId);
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('cash_out');
    expect(events[0]!.payload).toMatchObject({
      event: 'CashOut',
      status: 'CONFIRMED',
      transactionType: 'PIX',
      movementType: 'DEBIT',
      transactionId: out.transactionId,
      externalId: body.externalId,
      endToEndId: tx.end_to_end_id,
      pixKey: body.details.key,
      originalAmount: 25.5,
      feeAmount: 0,
      finalAmount: 25.5,
      errorCode: null,
      errorMessage: null,
      counterpart: { name: 'Fulano de Tal', document: expect.stringMatching(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/), bank: { bankISPB: expect.stringMatching(/^\d{8}$/) } },
      metadata: {},
    });
    // A second run of due jobs changes nothing.
    await h.advance(5);
    expect(await eventsOf(h, out.transactionId)).toHaveLength(1);
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('answers one validation text per invalid field', async () => {
    const a = await payer(h);
    const res = await post(a.token, { value: 1.234, externalId: '', description: 'x'.repeat(141), details: { key: 'a', keyType: 'CPFX', name: '', document: '1' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('HTTP_ERROR');
    expect(body.message).toEqual(
      expect.arrayContaining([
        'value must be a number with at most 2 decimal places',
        'externalId must not be empty',
        'description must be at most 140 characters long',
        'details.keyType must be one of: DOCUMENT, EMAIL, PHONE, RANDOM',
        'details.name must not be empty',
      ]),
    );
    const fields = (body.message as string[]).map((m) => m.split(' ')[0]);
    expect(new Set(fields).size).toBe(fields.length);
    const missing = await post(a.token, { value: 1 });
    expect(missing.json().message).toEqual(['externalId is required', 'details is required']);
    const zero = await post(a.token, cashOutBody({ value: 0 }));
    expect(zero.json().message).toEqual(['value must be greater than or equal to 0.01']);
  });

  it.each([
    ['DOCUMENT', '12345678900'],
    ['DOCUMENT', '123.456.789-09'],
    ['EMAIL', 'not-an-email'],
    ['PHONE', '+5511988887777'],
    ['PHONE', '0198888777'],
    ['RANDOM', 'not-a-uuid'],
  ])('refuses a %s key %s, naming details.key', async (keyType, key) => {
    const a = await payer(h);
    const res = await post(a.token, cashOutBody({}, { key, keyType }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual([expect.stringMatching(/^details\.key /)]);
  });

  it.each([
    ['DOCUMENT', cpf(77)],
    ['DOCUMENT', cnpj(77)],
    ['EMAIL', 'Maria.Silva@Example.com'],
    ['PHONE', '11988887777'],
    ['PHONE', '1133334444'],
    ['RANDOM', '2b5f0d8e-4a5c-4b7e-9f1a-3c2d1e0f9a8b'],
    ['RANDOM', '2b5f0d8e4a5c4b7e9f1a3c2d1e0f9a8b'],
  ])('accepts a %s key %s', async (keyType, key) => {
    const a = await payer(h);
    expect((await post(a.token, cashOutBody({}, { key, keyType }))).statusCode).toBe(201);
  });

  it('refuses an invalid details.document', async () => {
    const a = await payer(h);
    const res = await post(a.token, cashOutBody({}, { document: '11111111111' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual([expect.stringMatching(/^details\.document /)]);
  });

  it('PIX_INSUFFICIENT_BALANCE when available does not cover amount plus fee; nothing is stored', async () => {
    const a = await payer(h, 10);
    const res = await post(a.token, cashOutBody({ value: 10.01 }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'PIX_INSUFFICIENT_BALANCE', errorCode: 'PIX_INSUFFICIENT_BALANCE', userMessage: expect.any(String) });
    expect(await h.balance(a.id)).toEqual({ available: 10, blocked: 0 });
    const count = await h.c.db.selectFrom('transactions').select((e) => e.fn.countAll().as('n')).where('account_id', '=', a.id).where('kind', '=', 'WITHDRAW').executeTakeFirst();
    expect(Number(count!.n)).toBe(0);
  });

  it('fees: finalAmount = original + fee (fixed + percent, half-up), held and settled; a fee beyond the balance is refused', async () => {
    const a = await payer(h, 100);
    await h.admin('PATCH', `/admin/accounts/${a.id}/fees`, { cashOut: { fixed: 0.5, percent: 1.25 } });
    const res = await post(a.token, cashOutBody({ value: 10.1 }));
    expect(res.statusCode).toBe(201);
    // 1.25% of 10.10 = 0.12625 -> 0.13; + 0.50 = 0.63
    const tx = await txRow(h, res.json().transactionId);
    expect([tx.original_amount, tx.fee_amount, tx.final_amount]).toEqual([1010, 63, 1073]);
    expect(await h.balance(a.id)).toEqual({ available: 89.27, blocked: 10.73 });
    await h.advance(1);
    expect((await eventsOf(h, tx.transaction_id))[0]!.payload).toMatchObject({ originalAmount: 10.1, feeAmount: 0.63, finalAmount: 10.73 });
    const tooMuch = await post(a.token, cashOutBody({ value: 88.5 }));
    expect(tooMuch.json().code).toBe('PIX_INSUFFICIENT_BALANCE');
  });

  it('PIX_INVALID_AMOUNT above 999,999,999.99', async () => {
    const a = await payer(h);
    const res = await post(a.token, cashOutBody({ value: 1_000_000_000 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('PIX_INVALID_AMOUNT');
  });

  it('PIX_TRANSACTION_LIMIT_EXCEEDED and PIX_DAILY_LIMIT_EXCEEDED; an ERROR payout stops counting', async () => {
    const a = await payer(h, 5000);
    await h.admin('PATCH', `/admin/accounts/${a.id}/limits`, { perTransaction: 100, daily: 150 });
    const over = await post(a.token, cashOutBody({ value: 100.01 }));
    expect(over.json()).toMatchObject({ statusCode: 400, code: 'PIX_TRANSACTION_LIMIT_EXCEEDED' });
    expect((await post(a.token, cashOutBody({ value: 100 }))).statusCode).toBe(201);
    const rejected = await post(a.token, cashOutBody({ value: 50 }), { 'x-sandbox-scenario': 'error:order-rejected' });
    expect(rejected.statusCode).toBe(201);
    const daily = await post(a.token, cashOutBody({ value: 0.01 }));
    expect(daily.json()).toMatchObject({ statusCode: 400, code: 'PIX_DAILY_LIMIT_EXCEEDED' });
    await h.advance(1); // the rejected 50 is released, and stops counting
    expect((await post(a.token, cashOutBody({ value: 50 }))).statusCode).toBe(201);
    expect((await post(a.token, cashOutBody({ value: 0.01 }))).json().code).toBe('PIX_DAILY_LIMIT_EXCEEDED');
  });

  it('PIX_DUPLICATE_EXTERNAL_ID (400) names the externalId and the existing transaction', async () => {
    const a = await payer(h, 100);
    const body = cashOutBody();
    const first = await post(a.token, body);
    const second = await post(a.token, { ...body, value: 11 });
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({
      code: 'PIX_DUPLICATE_EXTERNAL_ID',
      errorCode: 'PIX_DUPLICATE_EXTERNAL_ID',
      details: { externalId: body.externalId, existingTransactionId: first.json().transactionId },
    });
    expect(await h.balance(a.id)).toEqual({ available: 90, blocked: 10 });
    // Another account may use the same externalId.
    const b = await payer(h, 100);
    expect((await post(b.token, body)).statusCode).toBe(201);
  });

  it('PIX_INVALID_PIX_KEY for a key the directory does not know, and for the account own key', async () => {
    const a = await payer(h, 100);
    for (const [key, keyType] of [
      ['ninguem@notfound.example', 'EMAIL'],
      ['11900000000', 'PHONE'],
      ['00000000-0000-0000-0000-000000000000', 'RANDOM'],
      [a.pixKey, 'RANDOM'],
    ]) {
      const res = await post(a.token, cashOutBody({}, { key, keyType }));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('PIX_INVALID_PIX_KEY');
    }
    expect(await h.balance(a.id)).toEqual({ available: 100, blocked: 0 });
  });

  it('a registered key whose document differs from details.document ends in ERROR TAX_ID_MISMATCH; the holder is the counterpart', async () => {
    const a = await payer(h, 100);
    const holderDoc = cpf(424242);
    const reg = await h.admin('POST', '/sandbox/dict/keys', { key: 'loja@registrada.example', keyType: 'EMAIL', name: 'Loja Registrada', document: holderDoc, ispb: '00000000', branch: '0001', account: '12345-6' });
    expect(reg.statusCode).toBe(201);
    const ok = await post(a.token, cashOutBody({}, { key: 'loja@registrada.example', document: holderDoc }));
    const bad = await post(a.token, cashOutBody({}, { key: 'loja@registrada.example', document: cpf(1) }));
    await h.advance(1);
    const okTx = await txRow(h, ok.json().transactionId);
    expect(okTx.status).toBe('CONFIRMED');
    expect(okTx.counterpart).toMatchObject({ name: 'Loja Registrada', bank: { bankISPB: '00000000', accountBranch: '0001', accountNumber: '12345-6' } });
    const badTx = await txRow(h, bad.json().transactionId);
    expect([badTx.status, badTx.error_code, badTx.end_to_end_id]).toEqual(['ERROR', 'TAX_ID_MISMATCH', null]);
    expect(await h.balance(a.id)).toEqual({ available: 90, blocked: 0 });
  });

  describe('X-Sandbox-Scenario (decisions 4.9)', () => {
    it.each(Object.entries(SCENARIO_REJECTIONS))('%s: 201 PENDING, then ERROR %s with the money back', async (header, rejection) => {
      const a = await payer(h, 50);
      const res = await post(a.token, cashOutBody({ value: 20 }), { 'x-sandbox-scenario': header });
      expect(res.statusCode).toBe(201);
      expect(res.json().status).toBe('PENDING');
      expect(await h.balance(a.id)).toEqual({ available: 30, blocked: 20 });
      await h.advance(1);
      expect(await h.balance(a.id)).toEqual({ available: 50, blocked: 0 });
      const tx = await txRow(h, res.json().transactionId);
      expect([tx.status, tx.error_code, tx.end_to_end_id]).toEqual(['ERROR', rejection.errorCode, null]);
      const [event] = await eventsOf(h, tx.transaction_id);
      expect(event!.payload).toMatchObject({ event: 'CashOut', status: 'ERROR', errorCode: rejection.errorCode, errorMessage: rejection.errorMessage, endToEndId: null });
    });

    it('success settles after the delay; delayed:Ns N seconds later (clamped to 120)', async () => {
      const a = await payer(h, 100);
      const ok = await post(a.token, cashOutBody(), { 'x-sandbox-scenario': 'success' });
      const late = await post(a.token, cashOutBody(), { 'x-sandbox-scenario': 'delayed:5s' });
      const clamped = await post(a.token, cashOutBody(), { 'x-sandbox-scenario': 'delayed:500s' });
      await h.advance(1);
      expect((await txRow(h, ok.json().transactionId)).status).toBe('CONFIRMED');
      expect((await txRow(h, late.json().transactionId)).status).toBe('PENDING');
      await h.advance(5);
      expect((await txRow(h, late.json().transactionId)).status).toBe('CONFIRMED');
      await h.advance(110);
      expect((await txRow(h, clamped.json().transactionId)).status).toBe('PENDING');
      await h.advance(10);
      expect((await txRow(h, clamped.json().transactionId)).status).toBe('CONFIRMED');
      expect(await h.balance(a.id)).toEqual({ available: 70, blocked: 0 });
    });

    it('error:provider-unavailable answers 500 at once, stores nothing, holds nothing', async () => {
      const a = await payer(h, 100);
      const body = cashOutBody();
      const res = await post(a.token, body, { 'x-sandbox-scenario': 'error:provider-unavailable' });
      expect(res.statusCode).toBe(500);
      expect(res.json().code).toBe('PROVIDER_UNAVAILABLE');
      expect(await h.balance(a.id)).toEqual({ available: 100, blocked: 0 });
      expect((await post(a.token, body)).statusCode).toBe(201);
    });

    it('any other value answers 400 listing the allowed ones', async () => {
      const a = await payer(h, 100);
      for (const value of ['nope', 'pending', 'delayed:xs']) {
        const res = await post(a.token, cashOutBody(), { 'x-sandbox-scenario': value });
        expect(res.statusCode).toBe(400);
        expect(res.json().message[0]).toContain('error:insufficient-funds');
      }
    });
  });

  it('on-us: a key of another account settles both sides at once (Pix in + cash_in, payer CONFIRMED + cash_out)', async () => {
    const a = await payer(h, 100);
    const b = await h.createAccount({ name: 'Recebedor', document: cpf(98765) });
    const res = await post(a.token, cashOutBody({ value: 30 }, { key: b.pixKey, keyType: 'RANDOM', document: cpf(98765) }));
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe('CONFIRMED');
    expect(await h.balance(a.id)).toEqual({ available: 70, blocked: 0 });
    expect(await h.balance(b.id)).toEqual({ available: 30, blocked: 0 });
    const payerTx = await txRow(h, res.json().transactionId);
    const [out] = await eventsOf(h, payerTx.transaction_id);
    expect(out!.payload).toMatchObject({ event: 'CashOut', status: 'CONFIRMED', counterpart: { name: 'Recebedor', bank: { bankISPB: '99999999' } } });
    const received = await h.c.db.selectFrom('transactions').selectAll().where('account_id', '=', b.id).where('kind', '=', 'PAYMENT').executeTakeFirstOrThrow();
    expect(received).toMatchObject({ status: 'CONFIRMED', origin: 'on_us', end_to_end_id: payerTx.end_to_end_id, original_amount: 3000 });
    const [inEvent] = await eventsOf(h, received.transaction_id);
    expect(inEvent).toMatchObject({ type: 'cash_in', payload: { event: 'CashIn', status: 'CONFIRMED', originalAmount: 30 } });
    // A document that is not the receiver's is refused by the receiving side, at once.
    const mismatch = await post(a.token, cashOutBody({ value: 5 }, { key: b.pixKey, keyType: 'RANDOM', document: cpf(1) }));
    expect(mismatch.json().status).toBe('ERROR');
    expect(await h.balance(a.id)).toEqual({ available: 70, blocked: 0 });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('PIX_NIGHT_LIMIT_EXCEEDED between 20:00 and 06:00 in São Paulo, counting across midnight', async () => {
    const night = await startHarness({ start: new Date('2026-11-20T23:30:00.000Z') }); // 20:30 in São Paulo
    try {
      const a = await night.createAccount({ funds: 5000 });
      // Tokens live 30 minutes: each call gets a fresh one, as the clock jumps hours.
      const send = async (value: number) => night.api('POST', '/api/pix/cash-out', await night.tokenFor(a.id), cashOutBody({ value }));
      expect((await send(600)).statusCode).toBe(201);
      const over = await send(400.01);
      expect(over.json()).toMatchObject({ code: 'PIX_NIGHT_LIMIT_EXCEEDED' });
      await night.advance(4 * 3600); // 00:30, same night, next calendar day
      expect((await send(400.01)).json().code).toBe('PIX_NIGHT_LIMIT_EXCEEDED');
      expect((await send(400)).statusCode).toBe(201);
      await night.advance(6 * 3600); // 06:30: day time, only the daily limit applies
      expect((await send(1500)).statusCode).toBe(201);
    } finally {
      await night.close();
    }
  });
});
