import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, eventsOf, payer, txRow } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('GET /api/transactions', () => {
  it('lists with labels, movement, masked documents, newest first, and pagination metadata', async () => {
    const a = await payer(h, 100); // a deposit: Pix in
    const out = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }));
    await h.advance(1);
    const failed = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 5 }), { 'x-sandbox-scenario': 'error:order-rejected' });
    const res = await h.api('GET', '/api/transactions', a.token);
    expect(res.statusCode).toBe(200);
    const { data, metadata } = res.json();
    expect(metadata).toEqual({ page: 1, size: 20, total: 3, totalPages: 1, hasNext: false, hasPrevious: false });
    expect(data.map((t: any) => [t.operationType, t.status, t.movementType])).toEqual([
      ['Pix out', 'Pendente', 'DEBIT'],
      ['Pix out', 'Confirmado', 'DEBIT'],
      ['Pix in', 'Confirmado', 'CREDIT'],
    ]);
    expect(data[0].transactionId).toBe(failed.json().transactionId);
    expect(data[1]).toMatchObject({
      transactionId: out.json().transactionId,
      originalAmount: 10,
      feeAmount: 0,
      finalAmount: 10,
      endToEndId: expect.stringMatching(/^E/),
      createdAt: '2026-11-20T15:00:00.000Z',
      processedAt: '2026-11-20T15:00:01.000Z',
      counterpart: { name: 'Fulano de Tal', document: expect.stringMatching(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/), bank: expect.any(Object) },
    });
    await h.advance(1);
    const errors = await h.api('GET', '/api/transactions?status=ERROR', a.token);
    expect(errors.json().data.map((t: any) => t.status)).toEqual(['Error']);
    expect((await h.api('GET', '/api/transactions?type=PAYMENT', a.token)).json().data.map((t: any) => t.operationType)).toEqual(['Pix in']);
    const byExt = await h.api('GET', `/api/transactions?externalId=${failed.json().externalId}`, a.token);
    expect(byExt.json().metadata.total).toBe(1);
    const e2e = data[1].endToEndId;
    expect((await h.api('GET', `/api/transactions?endToEndId=${e2e}`, a.token)).json().data.map((t: any) => t.endToEndId)).toEqual([e2e]);
    const paged = (await h.api('GET', '/api/transactions?page=2&size=2', a.token)).json();
    expect(paged.metadata).toEqual({ page: 2, size: 2, total: 3, totalPages: 2, hasNext: false, hasPrevious: true });
    expect(paged.data).toHaveLength(1);
    // Another account sees none of it.
    const b = await payer(h, 0);
    expect((await h.api('GET', '/api/transactions', b.token)).json().metadata.total).toBe(0);
  });

  it('filters by UTC dates, both ends inclusive, at most 31 days apart; defaults to the last 31 days', async () => {
    const a = await payer(h, 100); // 2026-11-20
    await h.advance(3 * 86400); // 2026-11-23
    const token = await h.tokenFor(a.id);
    await h.api('POST', '/api/pix/cash-out', token, cashOutBody({ value: 1 }));
    const get = (q: string) => h.api('GET', `/api/transactions${q}`, token);
    expect((await get('?startDate=2026-11-20&endDate=2026-11-20')).json().metadata.total).toBe(1);
    expect((await get('?startDate=2026-11-21&endDate=2026-11-23')).json().metadata.total).toBe(1);
    expect((await get('')).json().metadata.total).toBe(2);
    expect((await get('?endDate=2026-11-22')).json().metadata.total).toBe(1);
    const tooLong = await get('?startDate=2026-10-01&endDate=2026-11-23');
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toEqual([expect.stringContaining('31 days')]);
    expect((await get('?startDate=2026-10-23&endDate=2026-11-23')).statusCode).toBe(200);
    expect((await get('?startDate=2026-11-23&endDate=2026-11-20')).statusCode).toBe(400);
    expect((await get('?startDate=2026-02-30')).statusCode).toBe(400);
    expect((await get('?size=101')).statusCode).toBe(400);
    expect((await get('?page=0')).statusCode).toBe(400);
    expect((await get('?status=DONE')).json().message).toEqual(['status must be one of: PENDING, CONFIRMED, ERROR']);
    expect((await get('?type=TRANSFER')).statusCode).toBe(400);
  });

  it('needs pix:read', async () => {
    const a = await payer(h, 0);
    expect((await h.app.inject({ method: 'GET', url: '/api/transactions' })).statusCode).toBe(401);
    const writeOnly = await h.tokenFor(a.id, ['pix:write']);
    expect((await h.api('GET', '/api/transactions', writeOnly)).statusCode).toBe(403);
  });
});

describe('GET /api/pix/transaction/{id}', () => {
  it('answers the provider poll shape by numeric id, transactionId or externalId; foreign ids are 404', async () => {
    const a = await payer(h, 100);
    const body = cashOutBody({ value: 3 });
    const out = await h.api('POST', '/api/pix/cash-out', a.token, body);
    const row = await txRow(h, out.json().transactionId);
    for (const id of [String(row.id), row.transaction_id, body.externalId]) {
      const res = await h.api('GET', `/api/pix/transaction/${encodeURIComponent(id)}`, a.token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: String(row.id),
        externalId: body.externalId,
        type: 'WITHDRAW',
        status: 'PENDING',
        originalAmount: 3,
        feeAmount: 0,
        finalAmount: 3,
        e2eId: null,
        counterpartName: 'Fulano de Tal',
        counterpartDocument: expect.stringMatching(/^\*\*\*\./),
        counterpartAccountBankCode: expect.anything(),
        counterpartAccountBranch: expect.any(String),
        counterpartAccountNumber: expect.any(String),
        counterpartAccountIspb: expect.stringMatching(/^\d{8}$/),
        counterpartAccountBankName: expect.any(String),
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
        processedAt: null,
      });
    }
    const b = await payer(h, 0);
    expect((await h.api('GET', `/api/pix/transaction/${row.id}`, b.token)).statusCode).toBe(404);
    expect((await h.api('GET', `/api/pix/transaction/${body.externalId}`, b.token)).statusCode).toBe(404);
    expect((await h.api('GET', '/api/pix/transaction/nope', a.token)).statusCode).toBe(404);
  });
});

describe('POST /sandbox/payouts/{transactionId}/refund', () => {
  it('credits a Refund out with its refund_out event; never more than the payout in total', async () => {
    const a = await payer(h, 100);
    await h.admin('PATCH', `/admin/accounts/${a.id}/fees`, { cashOut: { fixed: 1, percent: 0 } });
    const out = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 40 }));
    const id = out.json().transactionId;
    const early = await h.admin('POST', `/sandbox/payouts/${id}/refund`, { accountId: a.id, amount: 10 });
    expect(early.statusCode).toBe(409); // still PENDING
    await h.advance(1);
    expect(await h.balance(a.id)).toEqual({ available: 59, blocked: 0 });
    const part = await h.api('POST', `/sandbox/payouts/${id}/refund`, a.token, { amount: 15 });
    expect(part.statusCode).toBe(201);
    expect(part.json()).toMatchObject({ type: 'REFUND_OUT', status: 'CONFIRMED', movementType: 'CREDIT', finalAmount: 15, endToEndId: expect.stringMatching(/^D/) });
    expect(await h.balance(a.id)).toEqual({ available: 74, blocked: 0 });
    const [event] = await eventsOf(h, part.json().transactionId);
    const payout = await txRow(h, id);
    expect(event).toMatchObject({
      type: 'refund_out',
      payload: {
        event: 'CashOutReversal',
        movementType: 'CREDIT',
        status: 'CONFIRMED',
        originalAmount: 15,
        parentTransaction: {
          transactionId: id,
          externalId: payout.external_id,
          endToEndId: payout.end_to_end_id,
          processingDate: payout.processed_at!.toISOString(),
          wasTotalRefunded: false,
          remainingAmountForRefund: 25,
          metadata: {},
          counterpart: { name: 'Fulano de Tal' },
        },
      },
    });
    const tooMuch = await h.api('POST', `/sandbox/payouts/${id}/refund`, a.token, { amount: 25.01 });
    expect(tooMuch.statusCode).toBe(400);
    const rest = await h.api('POST', `/sandbox/payouts/${payout.id}/refund`, a.token, { amount: 25 });
    expect(rest.statusCode).toBe(201);
    expect((await eventsOf(h, rest.json().transactionId))[0]!.payload.parentTransaction).toMatchObject({ wasTotalRefunded: true, remainingAmountForRefund: 0 });
    expect((await h.api('POST', `/sandbox/payouts/${id}/refund`, a.token, { amount: 0.01 })).statusCode).toBe(400);
    expect(await h.balance(a.id)).toEqual({ available: 99, blocked: 0 });
    const list = await h.api('GET', '/api/transactions?type=REFUND_OUT', a.token);
    expect(list.json().data.map((t: any) => [t.operationType, t.movementType])).toEqual([['Refund out', 'CREDIT'], ['Refund out', 'CREDIT']]);
    const b = await payer(h, 0);
    expect((await h.api('POST', `/sandbox/payouts/${id}/refund`, b.token, { amount: 1 })).statusCode).toBe(404);
  });
});
