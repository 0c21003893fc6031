import { describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { Harness } from '../harness.ts';
import { balances, deliverAll, subscribe, transactionsOf, type FlowReceiver, useFlowEnvironment } from './flow-kit.ts';

let h: Harness;
let rx: FlowReceiver;
useFlowEnvironment((env) => ({ h, rx } = env));

describe('splits to the receiving account itself', () => {
  it('are refused at creation (400 naming the split), as a cash-out to one\'s own key is; nothing is stored', async () => {
    const shop = await h.createAccount({ name: 'Loja Propria' });
    const token = await h.tokenFor(shop.id);
    const self = { pixKey: shop.pixKey, pixKeyType: 'RANDOM', name: 'Eu', document: cpf(1), type: 'FIXED', value: 10, immediate: true };
    const other = { pixKey: 'fornecedor@loja.example', pixKeyType: 'EMAIL', name: 'Fornecedor', document: cpf(9001), type: 'FIXED', value: 10 };
    const res = await h.api('POST', '/api/pix/cash-in', token, {
      transaction: { value: 100, description: 'Venda', externalId: 'self-split' },
      payer: { fullName: 'Cliente', document: cpf(7) },
      splits: [other, { ...self, pixKey: shop.pixKey.toUpperCase() }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'HTTP_ERROR', message: ['splits[1].pixKey must not be a key of the receiving account (the remainder already stays with it)'] });
    expect((await h.api('GET', '/api/transactions', token)).json().data).toEqual([]);
    const ok = await h.api('POST', '/api/pix/cash-in', token, { transaction: { value: 100, description: 'Venda', externalId: 'self-split' }, payer: { fullName: 'Cliente', document: cpf(7) }, splits: [other] });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});

describe('flow: a marketplace charge with immediate splits', () => {
  it('payment, CashIn, one CashOut per share (one on-us, with the partner notified), the remainder stays', async () => {
    const shop = await h.createAccount({ name: 'Marketplace do Fluxo' });
    const partner = await h.createAccount({ name: 'Parceiro Interno', document: cpf(8080) });
    const shopToken = await h.tokenFor(shop.id);
    const partnerToken = await h.tokenFor(partner.id);
    const shopHooks = await subscribe(h, rx, shop.id);
    const partnerHooks = await subscribe(h, rx, partner.id);

    const created = await h.api(
      'POST',
      '/api/pix/cash-in',
      shopToken,
      {
        transaction: { value: 200, description: 'Venda 9', externalId: 'venda-9' },
        payer: { fullName: 'Cliente Final', document: cpf(7) },
        splits: [
          { pixKey: 'fornecedor@loja.example', pixKeyType: 'EMAIL', name: 'Fornecedor', document: cpf(9001), type: 'FIXED', value: 30, immediate: true },
          { pixKey: partner.pixKey, pixKeyType: 'RANDOM', name: 'Parceiro Interno', document: cpf(8080), type: 'PERCENTAGE', value: 12.5, immediate: true },
        ],
      },
      { 'x-sandbox-scenario': 'pending' },
    );
    expect(created.statusCode, created.body).toBe(201);
    const paid = await h.api('POST', `/sandbox/charges/${created.json().transactionId}/pay`, shopToken, {});
    expect(paid.statusCode, paid.body).toBe(200);
    // The shares leave right after the payment (the external one settles after the network's delay).
    await h.advance(2);
    await h.advance(2);
    await deliverAll(h);

    // 200 in, 30 to the external supplier, 25 (12.5%) on-us to the partner: 145 stay.
    expect(await balances(h, shopToken)).toEqual({ available: 145, blocked: 0 });
    expect(await balances(h, partnerToken)).toEqual({ available: 25, blocked: 0 });
    expect(shopHooks.bodies('cash_in')).toEqual([expect.objectContaining({ event: 'CashIn', status: 'CONFIRMED', externalId: 'venda-9', originalAmount: 200 })]);
    const outs = shopHooks.bodies('cash_out');
    expect(outs.map((o) => [o.event, o.status, o.originalAmount, o.pixKey]).sort()).toEqual([
      ['CashOut', 'CONFIRMED', 25, partner.pixKey],
      ['CashOut', 'CONFIRMED', 30, 'fornecedor@loja.example'],
    ]);
    expect(partnerHooks.bodies('cash_in')).toEqual([expect.objectContaining({ event: 'CashIn', status: 'CONFIRMED', originalAmount: 25, counterpart: expect.objectContaining({ name: 'Marketplace do Fluxo' }) })]);
    const list = await transactionsOf(h, shopToken);
    expect(list.list.map((t) => [t.operationType, t.status, t.finalAmount]).sort()).toEqual([
      ['Pix in', 'Confirmado', 200],
      ['Pix out', 'Confirmado', 25],
      ['Pix out', 'Confirmado', 30],
    ]);
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
