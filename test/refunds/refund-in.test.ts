import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { accountWithReceivedPix, eventsOf } from './refund-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const refund = (id: string | number, token: string, body: unknown, headers: Record<string, string> = {}) =>
  h.api('POST', `/api/pix/refund-in/${id}`, token, body, headers);

describe('POST /api/pix/refund-in/{id}', () => {
  it('answers 201 PENDING, holds the amount, settles with a D end-to-end id and emits CashInReversal', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const res = await refund(pix.transactionId, token, { refundValue: 30.5, reason: 'cliente desistiu', externalId: 'dev1' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      externalId: 'dev1',
      status: 'PENDING',
      refundValue: 30.5,
      providerTransactionId: expect.stringMatching(/^D99999999\d{12}[A-Za-z0-9]{11}$/),
      generateTime: h.clock.now().toISOString(),
    });
    expect(body.transactionId).not.toBe(pix.transactionId);
    // No fee: exactly the refund is held.
    expect(await h.balance(account.id)).toEqual({ available: 69.5, blocked: 30.5 });
    await h.advance(2);
    expect(await h.balance(account.id)).toEqual({ available: 69.5, blocked: 0 });
    const [event] = await eventsOf(h, account.id, 'refund_in');
    expect(event!.payload).toMatchObject({
      event: 'CashInReversal',
      status: 'CONFIRMED',
      movementType: 'DEBIT',
      transactionId: body.transactionId,
      externalId: 'dev1',
      endToEndId: body.providerTransactionId,
      originalAmount: 30.5,
      feeAmount: 0,
      finalAmount: 30.5,
      errorCode: null,
      parentTransaction: {
        transactionId: pix.transactionId,
        endToEndId: pix.endToEndId,
        wasTotalRefunded: false,
        remainingAmountForRefund: 69.5,
        counterpart: { name: 'Pagador Sandbox', document: '***.982.247-**' },
      },
    });
  });

  it('accepts the numeric id, refunds the rest, and then reports the original as totally refunded', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 50);
    expect((await refund(pix.id, token, { refundValue: 20 })).statusCode).toBe(201);
    const second = await refund(pix.id, token, { refundValue: 30 });
    expect(second.statusCode).toBe(201);
    // Without an externalId the refund gets a generated one, usable as a devolucao id.
    expect(second.json().externalId).toMatch(/^[a-f0-9]{32}$/);
    await h.advance(2);
    const events = await eventsOf(h, account.id, 'refund_in');
    expect(events.map((e) => e.payload.parentTransaction.wasTotalRefunded)).toEqual([true, true]);
    expect(events.map((e) => e.payload.parentTransaction.remainingAmountForRefund)).toEqual([0, 0]);
  });

  it('refuses a refund above what is still refundable, counting pending refunds', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 100);
    const over = await refund(pix.transactionId, token, { refundValue: 100.01 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      code: 'PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE',
      errorCode: 'PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE',
      details: { refundableAmount: 100, requestedAmount: 100.01 },
    });
    expect((await refund(pix.transactionId, token, { refundValue: 60 })).statusCode).toBe(201);
    const second = await refund(pix.transactionId, token, { refundValue: 40.01 });
    expect(second.statusCode).toBe(400);
    expect(second.json().details.refundableAmount).toBe(40);
    expect((await refund(pix.transactionId, token, { refundValue: 40 })).statusCode).toBe(201);
  });

  it('gives the amount back when the refund ends in ERROR (scenario), and reports it', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const res = await refund(pix.transactionId, token, { refundValue: 100 }, { 'x-sandbox-scenario': 'error:order-rejected' });
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe('PENDING');
    expect(await h.balance(account.id)).toEqual({ available: 0, blocked: 100 });
    await h.advance(2);
    expect(await h.balance(account.id)).toEqual({ available: 100, blocked: 0 });
    const [event] = await eventsOf(h, account.id, 'refund_in');
    expect(event!.payload).toMatchObject({
      event: 'CashInReversal',
      status: 'ERROR',
      errorCode: 'ORDER_REJECTED',
      endToEndId: null,
      parentTransaction: { wasTotalRefunded: false, remainingAmountForRefund: 100 },
    });
    // The whole amount is refundable again.
    expect((await refund(pix.transactionId, token, { refundValue: 100 })).statusCode).toBe(201);
  });

  it('delays the outcome with delayed:Ns', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 10);
    await refund(pix.transactionId, token, { refundValue: 10 }, { 'x-sandbox-scenario': 'delayed:30s' });
    await h.advance(2);
    expect(await h.balance(account.id)).toEqual({ available: 0, blocked: 10 });
    await h.advance(30);
    expect(await h.balance(account.id)).toEqual({ available: 0, blocked: 0 });
  });

  it('answers 400 for an unknown scenario and 500 with nothing stored for provider-unavailable', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 10);
    const bad = await refund(pix.transactionId, token, { refundValue: 1 }, { 'x-sandbox-scenario': 'explode' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message[0]).toContain('X-Sandbox-Scenario must be one of');
    const down = await refund(pix.transactionId, token, { refundValue: 1 }, { 'x-sandbox-scenario': 'error:provider-unavailable' });
    expect(down.statusCode).toBe(500);
    expect(await h.balance(account.id)).toEqual({ available: 10, blocked: 0 });
    const refunds = await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', account.id).where('kind', '=', 'REFUND_IN').execute();
    expect(refunds).toEqual([]);
  });

  it('answers 404 for an unknown id, a foreign PIX, and a transaction that is not a received PIX', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 100);
    const other = await accountWithReceivedPix(h, 100);
    for (const id of ['999999', '6f1c1e1a-1111-4111-8111-111111111111', 'nope', other.pix.transactionId, String(other.pix.id)]) {
      const res = await refund(id, token, { refundValue: 1 });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, code: 'HTTP_ERROR' });
    }
    const made = (await refund(pix.transactionId, token, { refundValue: 1 })).json();
    expect((await refund(made.transactionId, token, { refundValue: 1 })).statusCode).toBe(404);
  });

  it('validates the body, one text per field', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 100);
    const cases: Array<[unknown, string]> = [
      [{}, 'refundValue is required'],
      [{ refundValue: 0 }, 'refundValue must be greater than or equal to 0.01'],
      [{ refundValue: 1.005 }, 'refundValue must be a number with at most 2 decimal places'],
      [{ refundValue: '10.00' }, 'refundValue must be a number'],
      [{ refundValue: 1, reason: 'x'.repeat(256) }, 'reason must be at most 255 characters long'],
      [{ refundValue: 1, externalId: '' }, 'externalId must be 1 to 35 printable characters, without spaces at either end'],
    ];
    for (const [body, message] of cases) {
      const res = await refund(pix.transactionId, token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'HTTP_ERROR', message: [message] });
    }
    expect((await refund(pix.transactionId, token, { refundValue: 1, reason: 'x'.repeat(255) })).statusCode).toBe(201);
  });

  it('refuses an externalId the account already used', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 100);
    const first = (await refund(pix.transactionId, token, { refundValue: 1, externalId: 'same' })).json();
    const again = await refund(pix.transactionId, token, { refundValue: 1, externalId: 'same' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'PIX_REFUND_DUPLICATE_EXTERNAL_ID',
      details: { externalId: 'same', existingTransactionId: first.transactionId },
    });
  });

  it('allows refunds until 89 days after receipt and refuses them after (service clock)', async () => {
    const { account, pix } = await accountWithReceivedPix(h, 100);
    await h.advance(89 * 86_400);
    // Access tokens live 30 minutes: a fresh one after the jump.
    const token = await h.tokenFor(account.id);
    expect((await refund(pix.transactionId, token, { refundValue: 1 })).statusCode).toBe(201);
    await h.advance(1);
    const late = await refund(pix.transactionId, token, { refundValue: 1 });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'PIX_REFUND_DEADLINE_EXCEEDED', errorCode: 'PIX_REFUND_DEADLINE_EXCEEDED' });
  });

  it('refuses a refund the available balance cannot hold', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 100);
    // A MED blocks the whole PIX as a precaution, so nothing is available.
    expect((await h.api('POST', '/sandbox/med', token, { endToEndId: pix.endToEndId })).statusCode).toBe(201);
    const res = await refund(pix.transactionId, token, { refundValue: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('PIX_INSUFFICIENT_BALANCE');
  });

  it('needs a token with pix:write', async () => {
    const { pix, account } = await accountWithReceivedPix(h, 100);
    const noToken = await h.app.inject({ method: 'POST', url: `/api/pix/refund-in/${pix.transactionId}`, payload: { refundValue: 1 } });
    expect(noToken.statusCode).toBe(401);
    const readOnly = await h.tokenFor(account.id, ['pix:read']);
    expect((await refund(pix.transactionId, readOnly, { refundValue: 1 })).statusCode).toBe(403);
  });
});
