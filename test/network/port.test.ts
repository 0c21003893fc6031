import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeDynamicBrCode } from '../../src/domain/brcode/encode.ts';
import { DomainError } from '../../src/domain/errors/domain-error.ts';
import type { Cents } from '../../src/domain/money.ts';
import type { ChargeOrder, PaymentOrder, PixNetwork } from '../../src/network/pix-network.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from '../payouts/helpers.ts';

/**
 * Issue 11 item 4: every conversation with the outside goes through the PixNetwork port. A
 * recording wrapper around the simulator sees what the services hand over: payments with their
 * payee (a key, a QR code with its location, the original of a refund) keyed by our transaction id,
 * and charges registered before they are stored, whose code the API then answers.
 */
const submitted: PaymentOrder[] = [];
const registered: ChargeOrder[] = [];
let refuseCharges = false;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    wrapNetwork: (real): PixNetwork => ({
      ...real,
      subscribe: (sink) => real.subscribe(sink),
      lookupKey: (key, hint) => real.lookupKey(key, hint),
      paymentStatuses: (orders) => real.paymentStatuses(orders),
      async submitPayments(orders) {
        submitted.push(...orders);
        return real.submitPayments(orders);
      },
      async registerCharge(order) {
        registered.push(order);
        if (refuseCharges) throw new DomainError('PROVIDER_UNAVAILABLE', { provider: 'test' });
        const { pixCode } = await real.registerCharge(order);
        return { pixCode: `${pixCode}` };
      },
    }),
  });
});
afterAll(() => h.close());
beforeEach(() => {
  submitted.length = 0;
  registered.length = 0;
  refuseCharges = false;
});

describe('the PixNetwork port carries every conversation with the outside', () => {
  it('a cash-out reaches the network only from the submit step, keyed by our transaction id, with its payee', async () => {
    const a = await payer(h, 100);
    const body = cashOutBody({ value: 12 }, { key: 'loja@example.com', keyType: 'EMAIL', document: cpf(42) });
    const res = await h.api('POST', '/api/pix/cash-out', a.token, body);
    expect(res.statusCode, res.body).toBe(201);
    // Admission committed without calling the network.
    expect(submitted).toEqual([]);
    await h.runJobs();
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({
      reference: res.json().transactionId,
      kind: 'payout',
      amount: 1200,
      payee: { by: 'key', key: { type: 'EMAIL', normalized: 'loja@example.com' }, document: cpf(42) },
    });
  });

  it('a foreign dynamic QR code is paid with its payee: the code and its location', async () => {
    const a = await payer(h, 100);
    const code = encodeDynamicBrCode({ url: 'pix.outrobanco.example/qr/v2/abc123', amount: 2500 as Cents, merchantName: 'Loja X', merchantCity: 'RIO' });
    const res = await h.api('POST', '/api/pix/cash-out-qrcode', a.token, { value: 25, qrCode: code, externalId: `qr-${Date.now()}`, document: cpf(55) });
    expect(res.statusCode, res.body).toBe(201);
    await h.runJobs();
    expect(submitted).toHaveLength(1);
    expect(submitted[0]!.payee).toMatchObject({ by: 'qr_code', qrCode: code, location: 'pix.outrobanco.example/qr/v2/abc123', document: cpf(55) });
  });

  it('a refund goes back to the payer of the original, named by its end-to-end id', async () => {
    const a = await payer(h, 100);
    const received = await h.c.db.selectFrom('transactions').select(['id', 'end_to_end_id']).where('account_id', '=', a.id).where('kind', '=', 'PAYMENT').executeTakeFirstOrThrow();
    const res = await h.api('POST', `/api/pix/refund-in/${received.id}`, a.token, { refundValue: 3, reason: 'devolução' });
    expect(res.statusCode, res.body).toBe(201);
    await h.runJobs();
    expect(submitted.map((o) => o.payee)).toEqual([{ by: 'refund', originalEndToEndId: received.end_to_end_id, reason: 'devolução' }]);
    expect(submitted[0]).toMatchObject({ kind: 'refund', amount: 300, reference: res.json().transactionId });
  });

  it('a charge is registered with the network before it is stored, and answers the code the network gave', async () => {
    const a = await payer(h, 0);
    const res = await h.api('POST', '/api/pix/cash-in', a.token, {
      transaction: { value: 9.9, description: 'Pedido', externalId: `c-${Date.now()}` },
      payer: { fullName: 'Cliente', document: cpf(7) },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(registered).toHaveLength(1);
    expect(registered[0]).toMatchObject({ reference: res.json().transactionId, kind: 'cash_in', amount: 990, receiver: { accountId: a.id } });
    const stored = await h.c.db.selectFrom('charges').select('br_code').where('account_id', '=', a.id).executeTakeFirstOrThrow();
    expect(res.json().pixCode).toBe(stored.br_code);
  });

  it('a network that cannot register a charge: 500 PROVIDER_UNAVAILABLE and nothing stored', async () => {
    const a = await payer(h, 0);
    refuseCharges = true;
    const res = await h.api('POST', '/api/pix/cash-in', a.token, {
      transaction: { value: 5, description: 'Pedido', externalId: `c-${Date.now()}` },
      payer: { fullName: 'Cliente', document: cpf(7) },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('PROVIDER_UNAVAILABLE');
    expect(await h.c.db.selectFrom('charges').select('id').where('account_id', '=', a.id).execute()).toEqual([]);
    expect(await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', a.id).execute()).toEqual([]);
  });

  it('a duplicate externalId is refused before the network hears of the charge', async () => {
    const a = await payer(h, 0);
    const body = { transaction: { value: 5, description: 'Pedido', externalId: `dup-${Date.now()}` }, payer: { fullName: 'Cliente', document: cpf(7) } };
    expect((await h.api('POST', '/api/pix/cash-in', a.token, body)).statusCode).toBe(201);
    const again = await h.api('POST', '/api/pix/cash-in', a.token, body);
    expect(again.json().code).toBe('PIX_DUPLICATE_EXTERNAL_ID');
    expect(registered).toHaveLength(1);
  });
});

describe('lookupKey has one meaning in every adapter', () => {
  it("the simulator's directory answers found (with its holder) or not_found; the provider's answers unknown_holder (test/network/provider/portal-payouts.test.ts)", async () => {
    const found = await h.c.network.lookupKey({ type: 'EMAIL', normalized: 'loja@example.com' }, { document: cpf(42) });
    expect(found).toMatchObject({ status: 'found', documentRequired: false, holder: { document: cpf(42) } });
    expect(await h.c.network.lookupKey({ type: 'EMAIL', normalized: 'ninguem@notfound.example' })).toEqual({ status: 'not_found' });
  });
});

// That no service reads the mode (nor imports an adapter) is checked on the syntax tree: test/architecture/import-rules.test.ts.
