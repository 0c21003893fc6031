import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { accountWithReceivedPix, eventsOf } from '../refunds/refund-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const openMed = (token: string, body: Record<string, unknown>) => h.api('POST', '/sandbox/med', token, body);
const move = (token: string, id: number, body: Record<string, unknown>) => h.api('POST', `/sandbox/med/${id}/transition`, token, body);

describe('POST /sandbox/med', () => {
  it('opens a MED against a received PIX, blocks the disputed amount and emits MedCreated', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const res = await openMed(token, { endToEndId: pix.endToEndId, cause: 'SCAM', description: 'golpe', amount: 40 });
    expect(res.statusCode).toBe(201);
    const med = res.json();
    expect(med).toEqual({
      id: expect.any(Number),
      endToEnd: pix.endToEndId,
      status: 'OPEN',
      reason: 'REFUND_REQUEST',
      cause: 'SCAM',
      description: 'golpe',
      analysisResult: null,
      analysisDetails: null,
      requestingBank: { ispb: '00000000', name: 'Banco do Brasil S.A.' },
      contestedBank: { ispb: '99999999', name: 'PIX Account Sandbox' },
      transaction: {
        amount: 100,
        type: 'PIX',
        transactionType: 'CASH_IN',
        name: 'Pagador Sandbox',
        document: '***.982.247-**',
        dateTime: expect.any(String),
      },
      isReconciled: true,
      originalTransactionId: pix.id,
      createdAt: h.clock.now().toISOString(),
      updatedAt: h.clock.now().toISOString(),
    });
    expect(await h.balance(account.id)).toEqual({ available: 60, blocked: 40 });
    const events = await eventsOf(h, account.id, 'med_created');
    expect(events.map((e) => e.payload)).toEqual([{ event: 'MedCreated', med }]);
  });

  it('blocks only what is available, and the whole PIX when no amount is given', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    expect((await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, token, { refundValue: 70 })).statusCode).toBe(201);
    expect((await openMed(token, { endToEndId: pix.endToEndId })).statusCode).toBe(201);
    expect(await h.balance(account.id)).toEqual({ available: 0, blocked: 100 });
  });

  it('acts for the admin with accountId, and refuses unknown PIX, foreign PIX and bad input', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 10);
    const other = await accountWithReceivedPix(h, 10);
    const admin = await h.admin('POST', '/sandbox/med', { accountId: account.id, endToEndId: pix.endToEndId, cause: 'OPERATIONAL_FLAW' });
    expect(admin.statusCode).toBe(201);
    // The admin's MED is the account's: it disputes that PIX and blocks the account's money.
    expect(admin.json()).toMatchObject({ endToEnd: pix.endToEndId, status: 'OPEN', cause: 'OPERATIONAL_FLAW', originalTransactionId: pix.id });
    expect(await h.balance(account.id)).toEqual({ available: 0, blocked: 10 });
    const withoutAccount = await h.admin('POST', '/sandbox/med', { endToEndId: pix.endToEndId });
    expect(withoutAccount.statusCode).toBe(400);
    expect(withoutAccount.json().message).toEqual(['accountId is required when calling with the admin token']);
    const foreign = await openMed(token, { endToEndId: other.pix.endToEndId });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ statusCode: 404, message: expect.any(String), error: 'Not Found' });
    expect((await openMed(token, { endToEndId: 'E99999999202611201500AAAAAAAAAAA' })).statusCode).toBe(404);
    for (const body of [
      { endToEndId: 'short' },
      { endToEndId: pix.endToEndId, cause: 'BORED' },
      { endToEndId: pix.endToEndId, amount: 0 },
      { endToEndId: pix.endToEndId, amount: 10.01 },
    ]) {
      expect((await openMed(token, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await h.app.inject({ method: 'POST', url: '/sandbox/med', payload: { endToEndId: pix.endToEndId } })).statusCode).toBe(401);
  });
});

describe('POST /sandbox/med/{id}/transition', () => {
  it('APPROVED returns the blocked money as a MED_FRAUDE refund and emits MedAccepted', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const med = (await openMed(token, { endToEndId: pix.endToEndId, cause: 'ACCOUNT_TAKEOVER', amount: 25 })).json();
    const received = await move(token, med.id, { to: 'RECEIVED' });
    expect(received.statusCode).toBe(200);
    expect(received.json()).toMatchObject({ status: 'RECEIVED', analysisResult: null });
    const analyzed = await move(token, med.id, { to: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: 'fraude comprovada' });
    expect(analyzed.statusCode).toBe(200);
    expect(analyzed.json()).toMatchObject({ status: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: 'fraude comprovada' });
    expect(await h.balance(account.id)).toEqual({ available: 75, blocked: 0 });
    const refund = await h.c.db.selectFrom('transactions').selectAll().where('account_id', '=', account.id).where('kind', '=', 'REFUND_IN').executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ status: 'CONFIRMED', origin: 'med', original_amount: 2500, parent_id: pix.id });
    expect(refund.end_to_end_id).toMatch(/^D99999999/);
    const devolucao = await h.api('GET', `/pix/${pix.endToEndId}/devolucao/MED${med.id}`, token);
    expect(devolucao.json()).toMatchObject({ natureza: 'MED_FRAUDE', status: 'DEVOLVIDO', valor: '25.00' });
    const accepted = await eventsOf(h, account.id, 'med_accepted');
    expect(accepted.map((e) => e.payload)).toEqual([{ event: 'MedAccepted', med: analyzed.json() }]);
    // The MED refund counts against the original: 75 remain refundable.
    const over = await h.api('POST', `/api/pix/refund-in/${pix.transactionId}`, token, { refundValue: 75.01 });
    expect(over.json().code).toBe('PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE');
  });

  it('refunds OPERATIONAL_FLAW as MED_OPERACIONAL', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 10);
    const med = (await openMed(token, { endToEndId: pix.endToEndId, cause: 'OPERATIONAL_FLAW' })).json();
    await move(token, med.id, { to: 'RECEIVED' });
    await move(token, med.id, { to: 'ANALYZED', analysisResult: 'APPROVED' });
    const devolucao = await h.api('GET', `/pix/${pix.endToEndId}/devolucao/MED${med.id}`, token);
    expect(devolucao.json()).toMatchObject({ natureza: 'MED_OPERACIONAL', valor: '10.00' });
  });

  it('REJECTED releases the block and emits MedRejected; CANCELLED releases without an event', async () => {
    const { account, pix, token } = await accountWithReceivedPix(h, 100);
    const a = (await openMed(token, { endToEndId: pix.endToEndId, amount: 30 })).json();
    const b = (await openMed(token, { endToEndId: pix.endToEndId, amount: 20 })).json();
    expect(await h.balance(account.id)).toEqual({ available: 50, blocked: 50 });
    await move(token, a.id, { to: 'RECEIVED' });
    const rejected = await move(token, a.id, { to: 'ANALYZED', analysisResult: 'REJECTED' });
    expect(rejected.json()).toMatchObject({ status: 'ANALYZED', analysisResult: 'REJECTED' });
    expect(await h.balance(account.id)).toEqual({ available: 80, blocked: 20 });
    const cancelled = await move(token, b.id, { to: 'CANCELLED' });
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', reason: 'REFUND_CANCELLATION' });
    expect(await h.balance(account.id)).toEqual({ available: 100, blocked: 0 });
    expect((await eventsOf(h, account.id, 'med_rejected')).map((e) => e.payload)).toEqual([{ event: 'MedRejected', med: rejected.json() }]);
    expect(await eventsOf(h, account.id, 'med_accepted')).toEqual([]);
  });

  it('answers 409 for a move the state machine forbids, 400 for a missing or misplaced result, 404 for a foreign MED', async () => {
    const { pix, token } = await accountWithReceivedPix(h, 10);
    const other = await accountWithReceivedPix(h, 10);
    const med = (await openMed(token, { endToEndId: pix.endToEndId })).json();
    const skip = await move(token, med.id, { to: 'ANALYZED', analysisResult: 'APPROVED' });
    expect(skip.statusCode).toBe(409);
    expect(skip.json()).toEqual({ statusCode: 409, message: 'A MED in OPEN cannot move to ANALYZED', error: 'Conflict' });
    expect((await move(token, med.id, { to: 'OPEN' })).statusCode).toBe(409);
    expect((await move(token, med.id, { to: 'RECEIVED', analysisResult: 'APPROVED' })).statusCode).toBe(400);
    await move(token, med.id, { to: 'RECEIVED' });
    expect((await move(token, med.id, { to: 'ANALYZED' })).json().message).toEqual(['analysisResult is required when moving to ANALYZED']);
    expect((await move(token, med.id, { to: 'CLOSED' })).statusCode).toBe(400);
    expect((await move(other.token, med.id, { to: 'CANCELLED' })).statusCode).toBe(404);
    expect((await move(token, med.id, { to: 'CANCELLED' })).statusCode).toBe(200);
    expect((await move(token, med.id, { to: 'RECEIVED' })).statusCode).toBe(409);
    expect((await move(token, med.id, { to: 'CANCELLED' })).statusCode).toBe(409);
  });
});
