import { describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { Harness } from '../harness.ts';
import { balances, deliverAll, ISO, MASKED_CPF, subscribe, transactionsOf, type FlowReceiver, useFlowEnvironment } from './flow-kit.ts';

let h: Harness;
let rx: FlowReceiver;
useFlowEnvironment((env) => ({ h, rx } = env));

describe('flow: charge, payment, partial refund, the rest, a refused third refund', () => {
  it('keeps balances, the transaction list and the signed webhooks in agreement at every step', async () => {
    const account = await h.createAccount({ name: 'Loja do Fluxo' });
    const token = await h.tokenFor(account.id);
    const hooks = await subscribe(h, rx, account.id);
    const payerDocument = cpf(424242);

    // 1. A charge of R$ 100.00 that waits for its payer.
    const created = await h.api(
      'POST',
      '/api/pix/cash-in',
      token,
      {
        transaction: { value: 100, description: 'Pedido 77', externalId: 'pedido-77' },
        payer: { fullName: 'Maria Pagadora', document: payerDocument },
        additionalInfo: { pedido: '77' },
      },
      { 'x-sandbox-scenario': 'pending' },
    );
    expect(created.statusCode, created.body).toBe(201);
    const charge = created.json();
    expect(charge).toMatchObject({ externalId: 'pedido-77', status: 'PENDING' });
    expect(await balances(h, token)).toEqual({ available: 0, blocked: 0 });
    let txs = await transactionsOf(h, token);
    expect(txs.byId.get(charge.transactionId)).toMatchObject({ status: 'Pendente', operationType: 'Pix in', movementType: 'CREDIT', originalAmount: 100 });

    // 2. A payer at another bank pays it.
    const paid = await h.api('POST', `/sandbox/charges/${charge.transactionId}/pay`, token, {
      payer: { name: 'Maria Pagadora', document: payerDocument, ispb: '60746948' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const payment = paid.json();
    expect(payment.endToEndId).toMatch(/^E[0-9]{8}\d{12}[A-Za-z0-9]{11}$/);
    await deliverAll(h);
    const [cashIn, ...moreCashIn] = hooks.bodies('cash_in');
    expect(moreCashIn).toHaveLength(0);
    expect(cashIn).toEqual({
      event: 'CashIn',
      status: 'CONFIRMED',
      transactionType: 'PIX',
      movementType: 'CREDIT',
      transactionId: charge.transactionId,
      externalId: 'pedido-77',
      endToEndId: payment.endToEndId,
      pixKey: account.pixKey,
      feeAmount: 0,
      originalAmount: 100,
      finalAmount: 100,
      processingDate: expect.stringMatching(ISO),
      errorCode: null,
      errorMessage: null,
      counterpart: {
        name: 'Maria Pagadora',
        document: expect.stringMatching(MASKED_CPF),
        bank: expect.objectContaining({ bankISPB: '60746948' }),
      },
      metadata: { pedido: '77' },
    });
    expect(await balances(h, token)).toEqual({ available: 100, blocked: 0 });
    txs = await transactionsOf(h, token);
    expect(txs.byId.get(charge.transactionId)).toMatchObject({
      status: 'Confirmado',
      endToEndId: payment.endToEndId,
      counterpart: { name: 'Maria Pagadora', document: expect.stringMatching(MASKED_CPF) },
    });

    // 3. A partial refund of R$ 30.00: held, then settled.
    const first = await h.api('POST', `/api/pix/refund-in/${charge.transactionId}`, token, { refundValue: 30, reason: 'item em falta', externalId: 'dev1' });
    expect(first.statusCode, first.body).toBe(201);
    const refund1 = first.json();
    expect(refund1).toEqual({
      transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      externalId: 'dev1',
      status: 'PENDING',
      refundValue: 30,
      providerTransactionId: expect.stringMatching(/^D[0-9]{8}\d{12}[A-Za-z0-9]{11}$/),
      generateTime: expect.stringMatching(ISO),
    });
    expect(refund1.transactionId).not.toBe(charge.transactionId);
    expect(await balances(h, token)).toEqual({ available: 70, blocked: 30 });
    txs = await transactionsOf(h, token);
    expect(txs.byId.get(refund1.transactionId)).toMatchObject({ status: 'Pendente', operationType: 'Refund in', movementType: 'DEBIT', originalAmount: 30 });

    await h.advance(2);
    await deliverAll(h);
    expect(await balances(h, token)).toEqual({ available: 70, blocked: 0 });
    const [reversal1] = hooks.bodies('refund_in');
    expect(reversal1).toMatchObject({
      event: 'CashInReversal',
      status: 'CONFIRMED',
      movementType: 'DEBIT',
      transactionId: refund1.transactionId,
      externalId: 'dev1',
      endToEndId: refund1.providerTransactionId,
      originalAmount: 30,
      finalAmount: 30,
      errorCode: null,
      parentTransaction: {
        transactionId: charge.transactionId,
        externalId: 'pedido-77',
        endToEndId: payment.endToEndId,
        processingDate: expect.stringMatching(ISO),
        wasTotalRefunded: false,
        remainingAmountForRefund: 70,
        metadata: { pedido: '77' },
        counterpart: { name: 'Maria Pagadora', document: expect.stringMatching(MASKED_CPF) },
      },
    });
    txs = await transactionsOf(h, token);
    expect(txs.byId.get(refund1.transactionId)).toMatchObject({ status: 'Confirmado', endToEndId: refund1.providerTransactionId });

    // 4. The rest (R$ 70.00): the original is now totally refunded.
    const second = await h.api('POST', `/api/pix/refund-in/${charge.transactionId}`, token, { refundValue: 70 });
    expect(second.statusCode, second.body).toBe(201);
    const refund2 = second.json();
    expect(await balances(h, token)).toEqual({ available: 0, blocked: 70 });
    await h.advance(2);
    await deliverAll(h);
    const reversals = hooks.bodies('refund_in');
    expect(reversals).toHaveLength(2);
    expect(reversals[1]).toMatchObject({
      event: 'CashInReversal',
      status: 'CONFIRMED',
      transactionId: refund2.transactionId,
      originalAmount: 70,
      parentTransaction: { transactionId: charge.transactionId, wasTotalRefunded: true, remainingAmountForRefund: 0 },
    });
    expect(await balances(h, token)).toEqual({ available: 0, blocked: 0 });

    // 5. A third refund is refused, and nothing moves.
    const third = await h.api('POST', `/api/pix/refund-in/${charge.transactionId}`, token, { refundValue: 0.01 });
    expect(third.statusCode, third.body).toBe(400);
    expect(third.json()).toMatchObject({
      statusCode: 400,
      path: `/api/pix/refund-in/${charge.transactionId}`,
      method: 'POST',
      code: 'PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE',
      errorCode: 'PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE',
    });
    expect(await balances(h, token)).toEqual({ available: 0, blocked: 0 });

    // The list agrees: one Pix in and two confirmed Refund in, summing to zero.
    txs = await transactionsOf(h, token);
    expect(txs.list).toHaveLength(3);
    const net = txs.list.reduce((sum, t) => sum + (t.movementType === 'CREDIT' ? t.finalAmount : -t.finalAmount) * 100, 0);
    expect(net).toBe(0);
    expect(txs.list.every((t) => t.status === 'Confirmado')).toBe(true);
    const refundsOnly = await transactionsOf(h, token, '&type=REFUND_IN');
    expect(refundsOnly.list.map((t) => t.transactionId).sort()).toEqual([refund1.transactionId, refund2.transactionId].sort());
    // Only the three expected webhooks of these events arrived.
    expect(hooks.bodies('cash_in')).toHaveLength(1);
    expect(hooks.bodies('refund_in')).toHaveLength(2);
    expect(hooks.bodies('cash_out')).toHaveLength(0);
  });
});

describe('ledger invariant', () => {
  it('the postings of every account still sum to its balances', async () => {
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
