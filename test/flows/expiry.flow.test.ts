import { describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { Harness } from '../harness.ts';
import { balances, deliverAll, ISO, subscribe, transactionsOf, type FlowReceiver, useFlowEnvironment } from './flow-kit.ts';

let h: Harness;
let rx: FlowReceiver;
useFlowEnvironment((env) => ({ h, rx } = env));

describe('flow: charges nobody pays', () => {
  it('a cash-in expires into ERROR CHARGE_EXPIRED with its CashIn; a cob into REMOVIDA_PELO_PSP without an event; neither can be paid after', async () => {
    const account = await h.createAccount({ name: 'Loja Expira' });
    const token = await h.tokenFor(account.id);
    const hooks = await subscribe(h, rx, account.id);
    const charge = await h.api('POST', '/api/pix/cash-in', token, { transaction: { value: 12, description: 'Pedido', externalId: 'expira-1', expirationTime: 600 }, payer: { fullName: 'P', document: cpf(5) } }, { 'x-sandbox-scenario': 'pending' });
    expect(charge.statusCode, charge.body).toBe(201);
    expect(charge.json().expirationDate).toBe(new Date(h.clock.now().getTime() + 600_000).toISOString());
    const txid = 'expiraCob000000000000000000001';
    const cob = await h.api('PUT', `/cob/${txid}`, token, { calendario: { expiracao: 600 }, valor: { original: '9.00' }, chave: account.pixKey });
    expect(cob.statusCode, cob.body).toBe(201);

    await h.advance(599);
    await deliverAll(h);
    expect(hooks.bodies('cash_in')).toHaveLength(0);
    expect((await h.api('GET', `/cob/${txid}`, token)).json().status).toBe('ATIVA');

    await h.advance(2);
    await deliverAll(h);
    const [expired, ...more] = hooks.bodies('cash_in');
    expect(more).toHaveLength(0);
    expect(expired).toMatchObject({ event: 'CashIn', status: 'ERROR', transactionId: charge.json().transactionId, externalId: 'expira-1', errorCode: 'CHARGE_EXPIRED', errorMessage: expect.stringMatching(/\w/), endToEndId: null, processingDate: expect.stringMatching(ISO) });
    expect((await h.api('GET', `/cob/${txid}`, token)).json().status).toBe('REMOVIDA_PELO_PSP');
    const txs = await transactionsOf(h, token);
    expect(txs.list.map((t) => [t.operationType, t.status]).sort()).toEqual([
      ['Pix in', 'Error'],
      ['Pix in', 'Error'],
    ]);

    // Late payers are refused and no money arrives.
    expect((await h.api('POST', `/sandbox/charges/${charge.json().transactionId}/pay`, token, {})).statusCode).toBe(409);
    expect((await h.api('POST', `/sandbox/charges/${txid}/pay`, token, {})).statusCode).toBe(409);
    const payer = await h.createAccount({ funds: 50 });
    const payerToken = await h.tokenFor(payer.id);
    const onUs = await h.api('POST', '/api/pix/cash-out-qrcode', payerToken, { value: 12, qrCode: charge.json().pixCode, externalId: 'late-payer' });
    expect(onUs.statusCode, onUs.body).toBe(400);
    expect(await balances(h, payerToken)).toEqual({ available: 50, blocked: 0 });
    expect(await balances(h, token)).toEqual({ available: 0, blocked: 0 });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
