import { describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { Harness } from '../harness.ts';
import { balances, deliverAll, ISO, MASKED_CPF, subscribe, transactionsOf, type FlowReceiver, useFlowEnvironment } from './flow-kit.ts';

let h: Harness;
let rx: FlowReceiver;
useFlowEnvironment((env) => ({ h, rx } = env));

describe('flow: MEDs against received PIX', () => {
  it('opened (med_created, money blocked), approved (med_accepted, money gone), another rejected (med_rejected, block released)', async () => {
    const account = await h.createAccount({ name: 'Recebedora MED' });
    const token = await h.tokenFor(account.id);
    const hooks = await subscribe(h, rx, account.id);
    // Two PIX received from other banks.
    const payer = { name: 'Vitima Golpe', document: cpf(12121), ispb: '60746948' };
    const p1 = await h.api('POST', '/sandbox/deposits', token, { amount: 100, payer });
    const p2 = await h.api('POST', '/sandbox/deposits', token, { amount: 60, payer });
    expect(p1.statusCode, p1.body).toBe(201);
    expect(p2.statusCode, p2.body).toBe(201);
    await deliverAll(h);
    expect(hooks.bodies('cash_in')).toHaveLength(2);
    expect(await balances(h, token)).toEqual({ available: 160, blocked: 0 });

    // The payer's bank opens a MED against the first for R$ 40.00.
    const opened = await h.api('POST', '/sandbox/med', token, { endToEndId: p1.json().endToEndId, cause: 'SCAM', description: 'golpe do pix', amount: 40 });
    expect(opened.statusCode, opened.body).toBe(201);
    const med1 = opened.json();
    expect(med1).toMatchObject({ id: expect.any(Number), endToEnd: p1.json().endToEndId, status: 'OPEN', reason: 'REFUND_REQUEST', cause: 'SCAM', analysisResult: null, isReconciled: true });
    expect(med1.transaction).toEqual({ amount: 100, type: 'PIX', transactionType: 'CASH_IN', name: 'Vitima Golpe', document: expect.stringMatching(MASKED_CPF), dateTime: expect.stringMatching(ISO) });
    expect(med1.contestedBank).toEqual({ ispb: '99999999', name: expect.any(String) });
    expect(await balances(h, token)).toEqual({ available: 120, blocked: 40 });
    await deliverAll(h);
    expect(hooks.bodies('med_created')).toEqual([{ event: 'MedCreated', med: med1 }]);

    // A second MED, against the other PIX.
    const med2 = (await h.api('POST', '/sandbox/med', token, { endToEndId: p2.json().endToEndId, cause: 'UNAUTHORIZED_TRANSACTION' })).json();
    expect(await balances(h, token)).toEqual({ available: 60, blocked: 100 });
    await deliverAll(h);
    expect(hooks.bodies('med_created')).toHaveLength(2);

    // The list shows both, under analysis after RECEIVED.
    for (const id of [med1.id, med2.id]) {
      const res = await h.api('POST', `/sandbox/med/${id}/transition`, token, { to: 'RECEIVED' });
      expect(res.statusCode, res.body).toBe(200);
    }
    const list = await h.api('GET', '/api/med?status=RECEIVED', token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((m: any) => m.id).sort()).toEqual([med1.id, med2.id].sort());
    expect(list.json().metadata).toMatchObject({ total: 2, page: 1, pageSize: 20, totalPages: 1 });

    // Approved: the blocked R$ 40.00 leaves the account as a Refund in.
    const approved = await h.api('POST', `/sandbox/med/${med1.id}/transition`, token, { to: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: 'golpe confirmado' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await balances(h, token)).toEqual({ available: 60, blocked: 60 });
    await deliverAll(h);
    expect(hooks.bodies('med_accepted')).toEqual([{ event: 'MedAccepted', med: approved.json() }]);
    expect(approved.json()).toMatchObject({ status: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: 'golpe confirmado' });
    const refunds = await transactionsOf(h, token, '&type=REFUND_IN');
    expect(refunds.list).toHaveLength(1);
    expect(refunds.list[0]).toMatchObject({ operationType: 'Refund in', movementType: 'DEBIT', status: 'Confirmado', finalAmount: 40 });
    // Only R$ 60.00 of the first PIX remain refundable.
    const over = await h.api('POST', `/api/pix/refund-in/${p1.json().transactionId}`, token, { refundValue: 60.01 });
    expect(over.json().code).toBe('PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE');

    // Rejected: the whole second PIX is released.
    const rejected = await h.api('POST', `/sandbox/med/${med2.id}/transition`, token, { to: 'ANALYZED', analysisResult: 'REJECTED', analysisDetails: 'sem indícios' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await balances(h, token)).toEqual({ available: 120, blocked: 0 });
    await deliverAll(h);
    expect(hooks.bodies('med_rejected')).toEqual([{ event: 'MedRejected', med: rejected.json() }]);
    // A final MED cannot move again.
    expect((await h.api('POST', `/sandbox/med/${med2.id}/transition`, token, { to: 'CANCELLED' })).statusCode).toBe(409);
    expect(await balances(h, token)).toEqual({ available: 120, blocked: 0 });
    expect(hooks.bodies('med_accepted')).toHaveLength(1);
  });
});

describe('ledger invariant', () => {
  it('the postings of every account still sum to its balances', async () => {
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
