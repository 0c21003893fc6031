import { describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { Harness } from '../harness.ts';
import { balances, deliverAll, ISO, MASKED_CPF, subscribe, transactionsOf, type FlowReceiver, useFlowEnvironment } from './flow-kit.ts';

let h: Harness;
let rx: FlowReceiver;
useFlowEnvironment((env) => ({ h, rx } = env));

describe('flow: cob paid, then devolucao, in the compatible family', () => {
  it('PUT /cob, payment, RECEIVE v2, PUT devolucao, DEVOLVIDO, REFUND v2; GET /cob and GET devolucao agree', async () => {
    const account = await h.createAccount({ name: 'Padaria do Fluxo' });
    const token = await h.tokenFor(account.id);
    const hooks = await subscribe(h, rx, account.id);
    const txid = 'fluxoCob0000000000000000000001';
    const payerDocument = cpf(777001);

    const put = await h.api('PUT', `/cob/${txid}`, token, {
      calendario: { expiracao: 3600 },
      devedor: { cpf: payerDocument, nome: 'Cliente Devedor' },
      valor: { original: '80.00' },
      chave: account.pixKey,
      solicitacaoPagador: 'Pão e café',
    });
    expect(put.statusCode, put.body).toBe(201);
    expect(put.json()).toMatchObject({ txid, status: 'ATIVA', revisao: 0, valor: { original: '80.00' }, chave: account.pixKey });
    expect(put.json().location).toBe(put.json().loc.location);

    const pay = await h.api('POST', `/sandbox/charges/${txid}/pay`, token, { payer: { name: 'Cliente Devedor', document: payerDocument, ispb: '00000000' } });
    expect(pay.statusCode, pay.body).toBe(200);
    const e2e = pay.json().endToEndId as string;
    await deliverAll(h);

    const cob = (await h.api('GET', `/cob/${txid}`, token)).json();
    expect(cob).toMatchObject({ txid, status: 'CONCLUIDA', valor: { original: '80.00' } });
    const [receive, ...moreReceive] = hooks.bodies('cash_in');
    expect(moreReceive).toHaveLength(0);
    expect(receive).toEqual({
      type: 'RECEIVE',
      data: {
        id: expect.any(Number),
        txId: txid,
        status: 'LIQUIDATED',
        payment: { amount: '80.00', currency: 'BRL' },
        endToEndId: e2e,
        debtorAccount: { name: 'Cliente Devedor', document: expect.stringMatching(MASKED_CPF) },
      },
    });
    expect(await balances(h, token)).toEqual({ available: 80, blocked: 0 });

    // A devolucao of part of it.
    const dev = await h.api('PUT', `/pix/${e2e}/devolucao/dev1`, token, { valor: '25.50', descricao: 'troco' });
    expect(dev.statusCode, dev.body).toBe(201);
    expect(dev.json()).toMatchObject({ id: 'dev1', valor: '25.50', natureza: 'ORIGINAL', status: 'EM_PROCESSAMENTO', descricao: 'troco' });
    const rtrId = dev.json().rtrId as string;
    expect(rtrId).toMatch(/^D[0-9A-Za-z]{31}$/);
    expect(await balances(h, token)).toEqual({ available: 54.5, blocked: 25.5 });
    const pending = await h.api('GET', `/pix/${e2e}/devolucao/dev1`, token);
    expect(pending.json()).toEqual(dev.json());

    await h.advance(2);
    await deliverAll(h);
    const got = await h.api('GET', `/pix/${e2e}/devolucao/dev1`, token);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ id: 'dev1', rtrId, valor: '25.50', status: 'DEVOLVIDO', horario: { solicitacao: expect.stringMatching(ISO), liquidacao: expect.stringMatching(ISO) } });
    expect(await balances(h, token)).toEqual({ available: 54.5, blocked: 0 });

    const [refund, ...moreRefund] = hooks.bodies('refund_in');
    expect(moreRefund).toHaveLength(0);
    expect(refund).toMatchObject({
      type: 'REFUND',
      data: {
        id: receive.data.id,
        txId: txid,
        status: 'REFUNDED',
        payment: { amount: '80.00', currency: 'BRL' },
        refunds: [{ status: 'LIQUIDATED', payment: { amount: 25.5, currency: 'BRL' }, endToEndId: rtrId, eventDate: expect.stringMatching(ISO), information: 'troco' }],
        endToEndId: e2e,
        creditDebitType: 'DEBIT',
      },
    });

    // The cob is still CONCLUIDA; the public list shows both movements.
    expect((await h.api('GET', `/cob/${txid}`, token)).json().status).toBe('CONCLUIDA');
    const txs = await transactionsOf(h, token);
    expect(txs.list.map((t) => [t.operationType, t.status, t.finalAmount]).sort()).toEqual([
      ['Pix in', 'Confirmado', 80],
      ['Refund in', 'Confirmado', 25.5],
    ]);
    // Above what is still refundable is refused, in the short form.
    const over = await h.api('PUT', `/pix/${e2e}/devolucao/dev2`, token, { valor: '54.51' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ statusCode: 400, message: expect.anything(), error: 'Bad Request' });
  });
});

describe('ledger invariant', () => {
  it('the postings of every account still sum to its balances', async () => {
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
