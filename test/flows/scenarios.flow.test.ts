import { describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import type { Harness } from '../harness.ts';
import { balances, deliverAll, subscribe, type FlowReceiver, useFlowEnvironment } from './flow-kit.ts';

/** Decisions 4.9: every error scenario, on each operation that takes the header, ends in its errorCode. */
const SCENARIOS: Array<[string, string]> = [
  ['error:insufficient-funds', 'INSUFFICIENT_FUNDS'],
  ['error:invalid-pix-key', 'INVALID_PIX_KEY'],
  ['error:document-mismatch', 'TAX_ID_MISMATCH'],
  ['error:account-blocked', 'BLOCKED_ACCOUNT'],
  ['error:duplicate-id', 'DUPLICATE_ID'],
  ['error:invalid-tax-id', 'INVALID_TAX_ID'],
  ['error:account-closed', 'ACCOUNT_CLOSED'],
  ['error:order-rejected', 'ORDER_REJECTED'],
  ['error:payment-expired', 'PAYMENT_EXPIRED'],
  ['error:settlement-timeout', 'SETTLEMENT_TIMEOUT'],
];

let h: Harness;
let rx: FlowReceiver;
useFlowEnvironment((env) => ({ h, rx } = env));

describe('flow: every error scenario reaches the client as its errorCode, and the money comes back', () => {
  it('cash-out, cash-in and refund-in', async () => {
    const account = await h.createAccount({ funds: 1000 });
    const token = await h.tokenFor(account.id);
    const hooks = await subscribe(h, rx, account.id);
    const received = (await h.api('POST', '/sandbox/deposits', token, { amount: 100 })).json();
    await deliverAll(h);
    const start = await balances(h, token);

    for (const [header] of SCENARIOS) {
      const n = header.slice(6);
      const out = await h.api('POST', '/api/pix/cash-out', token, { value: 10, externalId: `out-${n}`, details: { key: `${n}@example.com`, keyType: 'EMAIL', name: 'N', document: cpf(8) } }, { 'x-sandbox-scenario': header });
      expect(out.statusCode, out.body).toBe(201);
      const charge = await h.api('POST', '/api/pix/cash-in', token, { transaction: { value: 10, description: 'd', externalId: `in-${n}` }, payer: { fullName: 'P', document: cpf(9) } }, { 'x-sandbox-scenario': header });
      expect(charge.statusCode, charge.body).toBe(201);
      const refund = await h.api('POST', `/api/pix/refund-in/${received.transactionId}`, token, { refundValue: 10, externalId: `rf${n.replace(/-/g, '')}` }, { 'x-sandbox-scenario': header });
      expect(refund.statusCode, refund.body).toBe(201);
    }
    expect((await balances(h, token)).blocked).toBe(200);
    await h.advance(2);
    await deliverAll(h);
    expect(await balances(h, token)).toEqual(start);

    const outs = new Map(hooks.bodies('cash_out').map((b) => [b.externalId, b]));
    const ins = new Map(hooks.bodies('cash_in').map((b) => [b.externalId, b]));
    const refunds = new Map(hooks.bodies('refund_in').map((b) => [b.externalId, b]));
    for (const [header, code] of SCENARIOS) {
      const n = header.slice(6);
      for (const [label, body] of [
        ['cash-out', outs.get(`out-${n}`)],
        ['cash-in', ins.get(`in-${n}`)],
        ['refund-in', refunds.get(`rf${n.replace(/-/g, '')}`)],
      ] as const) {
        expect(body, `${label} ${header}`).toMatchObject({ status: 'ERROR', errorCode: code, errorMessage: expect.stringMatching(/\w/), endToEndId: null });
      }
    }
    // A failed refund gives its amount back to the original: all of it is refundable again.
    expect(refunds.get('rfsettlementtimeout').parentTransaction).toMatchObject({ wasTotalRefunded: false, remainingAmountForRefund: 100 });
    const again = await h.api('POST', `/api/pix/refund-in/${received.transactionId}`, token, { refundValue: 100 });
    expect(again.statusCode, again.body).toBe(201);
  });
});

describe('ledger invariant', () => {
  it('the postings of every account still sum to its balances', async () => {
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });
});
