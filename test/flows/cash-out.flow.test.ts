import { describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { Harness } from '../harness.ts';
import { balances, deliverAll, ISO, MASKED_CPF, subscribe, transactionsOf, type FlowReceiver, useFlowEnvironment } from './flow-kit.ts';

let h: Harness;
let rx: FlowReceiver;
useFlowEnvironment((env) => ({ h, rx } = env));

const cashOut = (externalId: string, value: number, key = 'fornecedor@example.com') => ({
  value,
  externalId,
  description: 'pagamento fornecedor',
  details: { key, keyType: 'EMAIL', name: 'Fornecedor Ltda', document: cpf(31337) },
});

describe('flow: cash-out to an external key, a rejected one, and resends', () => {
  it('CONFIRMED and ERROR cash_out webhooks, balance restored on ERROR, resend by every identifier', async () => {
    const account = await h.createAccount({ name: 'Pagadora do Fluxo', funds: 500 });
    const token = await h.tokenFor(account.id);
    const hooks = await subscribe(h, rx, account.id);
    expect(await balances(h, token)).toEqual({ available: 500, blocked: 0 });

    // A payout that settles.
    const ok = await h.api('POST', '/api/pix/cash-out', token, cashOut('pay-ok', 120.25));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toEqual({ transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/), externalId: 'pay-ok', status: 'PENDING', generateTime: expect.stringMatching(ISO) });
    expect(await balances(h, token)).toEqual({ available: 379.75, blocked: 120.25 });
    await h.advance(2);
    await deliverAll(h);
    expect(await balances(h, token)).toEqual({ available: 379.75, blocked: 0 });
    const [confirmed] = hooks.bodies('cash_out');
    expect(confirmed).toEqual({
      event: 'CashOut',
      status: 'CONFIRMED',
      transactionType: 'PIX',
      movementType: 'DEBIT',
      transactionId: ok.json().transactionId,
      externalId: 'pay-ok',
      endToEndId: expect.stringMatching(/^E99999999\d{12}[A-Za-z0-9]{11}$/),
      pixKey: 'fornecedor@example.com',
      feeAmount: 0,
      originalAmount: 120.25,
      finalAmount: 120.25,
      processingDate: expect.stringMatching(ISO),
      errorCode: null,
      errorMessage: null,
      counterpart: {
        name: expect.any(String),
        document: expect.stringMatching(MASKED_CPF),
        bank: { bankISPB: expect.stringMatching(/^\d{8}$/), bankName: expect.any(String), bankCode: expect.anything(), accountBranch: expect.anything(), accountNumber: expect.anything() },
      },
      metadata: expect.any(Object),
    });

    // A payout the settling bank rejects: ERROR with errorCode, the money back.
    const bad = await h.api('POST', '/api/pix/cash-out', token, cashOut('pay-bad', 50), { 'x-sandbox-scenario': 'error:account-blocked' });
    expect(bad.statusCode, bad.body).toBe(201);
    expect(bad.json().status).toBe('PENDING');
    expect(await balances(h, token)).toEqual({ available: 329.75, blocked: 50 });
    await h.advance(2);
    await deliverAll(h);
    expect(await balances(h, token)).toEqual({ available: 379.75, blocked: 0 });
    const outs = hooks.bodies('cash_out');
    expect(outs).toHaveLength(2);
    expect(outs[1]).toMatchObject({
      event: 'CashOut',
      status: 'ERROR',
      transactionId: bad.json().transactionId,
      externalId: 'pay-bad',
      endToEndId: null,
      errorCode: 'BLOCKED_ACCOUNT',
      errorMessage: expect.stringMatching(/\w/),
    });
    const txs = await transactionsOf(h, token, '&type=WITHDRAW');
    expect(txs.byId.get(ok.json().transactionId)).toMatchObject({ status: 'Confirmado', operationType: 'Pix out', movementType: 'DEBIT', endToEndId: confirmed.endToEndId });
    expect(txs.byId.get(bad.json().transactionId)).toMatchObject({ status: 'Error', operationType: 'Pix out', endToEndId: null });
    expect((await transactionsOf(h, token, '&status=ERROR')).list.map((t) => t.transactionId)).toEqual([bad.json().transactionId]);

    // Resend by each identifier: numeric id, transactionId, externalId, end-to-end id.
    const numericId = (await h.api('GET', `/api/pix/transaction/${ok.json().transactionId}`, token)).json().id as string;
    expect(numericId).toMatch(/^\d+$/);
    const before = rx.at(`/${account.id}/cash_out`).length;
    for (const identifier of [numericId, ok.json().transactionId, 'pay-ok', confirmed.endToEndId]) {
      const res = await h.api('POST', `/api/resend-webhook/${identifier}`, token);
      expect(res.statusCode, `${identifier}: ${res.body}`).toBe(200);
      expect(res.json()).toEqual({ message: expect.any(String), webhookLogId: expect.any(Number), sentAt: expect.stringMatching(ISO), statusCode: 200 });
    }
    const resent = hooks.bodies('cash_out').slice(before);
    expect(resent).toHaveLength(4);
    for (const body of resent) expect(body).toEqual(confirmed);
    // The ERROR one resends its ERROR body; a one-off URL gets it alone.
    const oneOff = await h.api('POST', '/api/resend-webhook/pay-bad', token, { url: rx.url('/one-off') });
    expect(oneOff.statusCode, oneOff.body).toBe(200);
    expect(rx.at('/one-off')).toHaveLength(1);
    expect(hooks.verifier.verify(rx.at('/one-off')[0]!.raw, rx.at('/one-off')[0]!.headers as Record<string, string>)).toMatchObject({ status: 'ERROR', errorCode: 'BLOCKED_ACCOUNT' });
    expect(hooks.bodies('cash_out')).toHaveLength(before + 4);
    // The receiving bank returns R$ 20.25 of the settled payout: a Refund out, CREDIT, with refund_out.
    const returned = await h.api('POST', `/sandbox/payouts/${ok.json().transactionId}/refund`, token, { amount: 20.25 });
    expect(returned.statusCode, returned.body).toBe(201);
    await deliverAll(h);
    expect(await balances(h, token)).toEqual({ available: 400, blocked: 0 });
    const [reversal, ...moreReversals] = hooks.bodies('refund_out');
    expect(moreReversals).toHaveLength(0);
    expect(reversal).toMatchObject({
      event: 'CashOutReversal',
      status: 'CONFIRMED',
      movementType: 'CREDIT',
      transactionId: returned.json().transactionId,
      originalAmount: 20.25,
      endToEndId: expect.stringMatching(/^D\d{8}/),
      parentTransaction: {
        transactionId: ok.json().transactionId,
        externalId: 'pay-ok',
        endToEndId: confirmed.endToEndId,
        wasTotalRefunded: false,
        remainingAmountForRefund: 100,
        counterpart: { document: expect.stringMatching(MASKED_CPF) },
      },
    });
    expect((await transactionsOf(h, token, '&type=REFUND_OUT')).list.map((t) => [t.operationType, t.movementType, t.finalAmount])).toEqual([['Refund out', 'CREDIT', 20.25]]);

    // Another account cannot resend these.
    const other = await h.createAccount();
    const otherToken = await h.tokenFor(other.id);
    for (const identifier of [numericId, ok.json().transactionId, 'pay-ok', confirmed.endToEndId]) {
      const res = await h.api('POST', `/api/resend-webhook/${identifier}`, otherToken);
      expect(res.statusCode, identifier).toBe(404);
    }
  });
});

describe('ledger invariant', () => {
  it('the postings of every account still sum to its balances', async () => {
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
