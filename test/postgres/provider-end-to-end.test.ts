import { signatureHeaders } from '../../src/webhooks/signature.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpf } from '../factories.ts';
import { asAdmin, books, call, customerOfA, expectBooksAgree, startWorld, toCents, waitFor, type World } from './provider-kit.ts';

/**
 * Issue 13, "Done means": two instances of this service on real PostgreSQL, each in its own
 * database. B (sandbox mode, WEBHOOK_ROUTES_ENABLED=true) plays the upstream PIX provider; A
 * (production mode) moves its customers' money through a pooled account at B with the provider
 * adapter. Everything happens through A's public and admin APIs, B's admin and sandbox APIs, and
 * B's notices; after each step A's customers (plus A's suspense) hold exactly what the pooled
 * account holds at B, and A's ledger check is green.
 */
let w: World;
let customer: Awaited<ReturnType<typeof customerOfA>>;
/** What the customer holds after each step, in cents. */
let holds = 0;
let chargeId = '';
const DESTINATION = { key: 'loja.destino@pagamentos.example', name: 'Loja Destino', document: cpf(8801) };

beforeAll(async () => {
  // Reconciliation waits 30 s here: within these steps, only B's notices can finish a payment.
  w = await startWorld({ reconcileAfterS: '30' });
  customer = await customerOfA(w, 1);
}, 180_000);
afterAll(() => w?.close(), 60_000);

const txOfA = (id: string) => customer.api('GET', `/api/pix/transaction/${id}`);
async function finished(id: string) {
  return waitFor(`transaction ${id} to finish at A`, async () => {
    const t = await txOfA(id);
    return t.body.status !== 'PENDING' && t.body;
  });
}

describe('A in production mode, with B as its PIX provider', { timeout: 120_000 }, () => {
  it('on start, A registers its notice URL at B for every event', async () => {
    const status = await waitFor('the webhook registration', async () => {
      const s = await call(w.a.url, 'GET', '/admin/network/status', undefined, asAdmin);
      return s.body.provider?.webhooks?.state === 'registered' && s.body;
    });
    expect(status.provider.webhooks.url).toBe(`${w.gate.url}/network/provider/webhooks`);
    const hooks = await call(w.b.url, 'GET', `/admin/accounts/${w.pool.id}/webhooks`, undefined, asAdmin);
    const urls = new Map<string, string[]>();
    for (const h of hooks.body.data) urls.set(h.type, [...(urls.get(h.type) ?? []), h.url]);
    expect([...urls.keys()].sort()).toEqual(['cash_in', 'cash_out', 'med_accepted', 'med_created', 'med_rejected', 'refund_in', 'refund_out']);
    for (const list of urls.values()) expect(list).toEqual([`${w.gate.url}/network/provider/webhooks`]);
    await expectBooksAgree(w, { customers: 0 });
  });

  it("a customer's charge is registered at B, paid there by B's sandbox payer, and A credits the customer", async () => {
    const res = await customer.api('POST', '/api/pix/cash-in', {
      transaction: { value: 100, description: 'Pedido 1', externalId: 'pedido-1' },
      payer: { fullName: 'Maria Pagadora', document: cpf(9901) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    chargeId = res.body.transactionId;
    // The code payers use is B's: B's location, the pooled account's charge.
    const atB = await w.dbB.query('SELECT status, original_amount, account_id FROM transactions WHERE external_id = $1', [chargeId]);
    expect(atB.rows).toEqual([{ status: expect.any(String), original_amount: '10000', account_id: String(w.pool.id) }]);
    expect(res.body.pixCode).toContain(new URL(w.b.url).host);
    const paid = await finished(chargeId);
    expect(paid).toMatchObject({ status: 'CONFIRMED', type: 'PAYMENT', originalAmount: 100 });
    const paidAtB = await w.dbB.query('SELECT end_to_end_id, status FROM transactions WHERE external_id = $1', [chargeId]);
    expect(paidAtB.rows[0]).toEqual({ status: 'CONFIRMED', end_to_end_id: paid.e2eId });
    holds = 10_000;
    await expectBooksAgree(w, { customers: holds });
  });

  it("the customer pays out to a key of B's directory and the payout confirms", async () => {
    const key = await call(w.b.url, 'POST', '/sandbox/dict/keys', { accountId: w.pool.id, key: DESTINATION.key, keyType: 'EMAIL', name: DESTINATION.name, document: DESTINATION.document, ispb: '60746948' }, asAdmin);
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const res = await customer.api('POST', '/api/pix/cash-out', {
      value: 30,
      externalId: 'saque-1',
      description: 'Fornecedor',
      details: { key: DESTINATION.key, keyType: 'EMAIL', name: DESTINATION.name, document: DESTINATION.document },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe('PENDING');
    const done = await finished(res.body.transactionId);
    expect(done).toMatchObject({ status: 'CONFIRMED', type: 'WITHDRAW', originalAmount: 30 });
    const atB = await w.dbB.query("SELECT status, original_amount, end_to_end_id FROM transactions WHERE external_id = $1 AND kind = 'WITHDRAW'", [res.body.transactionId]);
    expect(atB.rows).toEqual([{ status: 'CONFIRMED', original_amount: '3000', end_to_end_id: done.e2eId }]);
    holds -= 3_000;
    await expectBooksAgree(w, { customers: holds });
  });

  it('a payout to a key B does not know ends ERROR PIX_INVALID_PIX_KEY with the money back', async () => {
    const res = await customer.api('POST', '/api/pix/cash-out', {
      value: 10,
      externalId: 'saque-2',
      details: { key: 'ninguem@notfound.example', keyType: 'EMAIL', name: 'Ninguém', document: cpf(8802) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe('PENDING');
    await finished(res.body.transactionId);
    const list = await customer.api('GET', '/api/transactions?externalId=saque-2');
    expect(list.body.data).toHaveLength(1);
    const row = await w.dbA.query('SELECT status, error_code FROM transactions WHERE transaction_id = $1', [res.body.transactionId]);
    expect(row.rows).toEqual([{ status: 'ERROR', error_code: 'PIX_INVALID_PIX_KEY' }]);
    const balance = await customer.api('GET', '/api/balance');
    expect(toCents(balance.body.netBalance)).toBe(holds);
    expect(balance.body.blockedBalance).toBe(0);
    // Nothing was paid at B.
    expect((await w.dbB.query('SELECT id FROM transactions WHERE external_id = $1', [res.body.transactionId])).rows).toEqual([]);
    await expectBooksAgree(w, { customers: holds });
  });

  it('a refund of the received charge reaches the payer (B returns it to the payer of its charge)', async () => {
    const res = await customer.api('POST', `/api/pix/refund-in/${chargeId}`, { refundValue: 20, reason: 'Produto devolvido' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const done = await finished(res.body.transactionId);
    expect(done).toMatchObject({ status: 'CONFIRMED', type: 'REFUND_IN', originalAmount: 20 });
    // At B: one refund of B's received PIX (the charge's payment), settled to its payer, known by our reference.
    const atB = await w.dbB.query(
      `SELECT r.status, r.original_amount, r.external_id FROM transactions r JOIN transactions o ON o.id = r.parent_id
        WHERE o.external_id = $1 AND r.kind = 'REFUND_IN'`,
      [chargeId],
    );
    expect(atB.rows).toEqual([{ status: 'CONFIRMED', original_amount: '2000', external_id: res.body.transactionId.replaceAll('-', '') }]);
    holds -= 2_000;
    await expectBooksAgree(w, { customers: holds });
  });

  it("a MED opened at B against the charge's payment reaches the customer's PIX at A, and its approval returns the money on both sides", async () => {
    const paid = await txOfA(chargeId);
    const opened = await call(w.b.url, 'POST', '/sandbox/med', { accountId: w.pool.id, endToEndId: paid.body.e2eId, cause: 'SCAM', description: 'Golpe relatado' }, asAdmin);
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const med = await waitFor('the MED at A', async () => {
      const list = await customer.api('GET', '/api/med');
      return list.body.data.length === 1 && list.body.data[0];
    });
    expect(med).toMatchObject({ endToEnd: paid.body.e2eId, status: 'OPEN', cause: 'SCAM', isReconciled: true });
    // Both sides block what is there of the disputed PIX: everything the customer (the pool) holds.
    expect(await customer.api('GET', '/api/balance').then((b) => b.body)).toMatchObject({ blockedBalance: holds / 100, netBalance: 0 });
    await expectBooksAgree(w, { customers: holds });
    expect((await call(w.b.url, 'POST', `/sandbox/med/${opened.body.id}/transition`, { accountId: w.pool.id, to: 'RECEIVED' }, asAdmin)).status).toBe(200);
    expect((await call(w.b.url, 'POST', `/sandbox/med/${opened.body.id}/transition`, { accountId: w.pool.id, to: 'ANALYZED', analysisResult: 'APPROVED' }, asAdmin)).status).toBe(200);
    const decided = await waitFor('the MED decided at A', async () => {
      const list = await customer.api('GET', '/api/med');
      return list.body.data[0].status === 'ANALYZED' && list.body.data[0];
    });
    expect(decided).toMatchObject({ analysisResult: 'APPROVED' });
    holds = 0;
    await expectBooksAgree(w, { customers: holds });
  });

  it('money sent straight to the pooled key waits in suspense until an operator assigns it', async () => {
    const deposit = await call(w.b.url, 'POST', '/sandbox/deposits', { accountId: w.pool.id, amount: 7 }, asAdmin);
    expect(deposit.status).toBe(201);
    const listed = await waitFor('the suspense item', async () => {
      const s = await call(w.a.url, 'GET', '/admin/network/suspense?status=OPEN', undefined, asAdmin);
      return s.body.total === 1 && s.body;
    });
    expect(listed.data[0]).toMatchObject({ status: 'OPEN', amount: 7, reason: 'no_charge', endToEndId: deposit.body.endToEndId ?? expect.any(String) });
    await expectBooksAgree(w, { customers: holds, suspense: 700 });
    const assigned = await call(w.a.url, 'POST', `/admin/network/suspense/${listed.data[0].id}/assign`, { accountId: customer.id }, asAdmin);
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body).toMatchObject({ status: 'ASSIGNED', assignedAccountId: customer.id, assignedTransactionId: expect.any(String) });
    const again = await call(w.a.url, 'POST', `/admin/network/suspense/${listed.data[0].id}/assign`, { accountId: customer.id }, asAdmin);
    expect(again.status).toBe(409);
    const credited = await txOfA(assigned.body.assignedTransactionId);
    expect(credited.body).toMatchObject({ status: 'CONFIRMED', type: 'PAYMENT', originalAmount: 7 });
    holds += 700;
    await expectBooksAgree(w, { customers: holds });
  });

  it('the statement check finds our books and the pooled account equal, and the status shows it all', async () => {
    const check = await call(w.a.url, 'POST', '/admin/network/statement-check', undefined, asAdmin);
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body).toMatchObject({ providerBalance: holds / 100, ourBalance: holds / 100, difference: 0, payoutsAwaiting: 0, error: null });
    const status = await call(w.a.url, 'GET', '/admin/network/status', undefined, asAdmin);
    expect(status.body).toMatchObject({
      adapter: 'provider',
      ledgerAccount: 'network:provider',
      payoutsAwaitingOutcome: { count: 0, oldestCreatedAt: null },
      suspense: { count: 0, total: 0 },
      provider: {
        url: w.upstream.url,
        circuit: { state: 'closed' },
        webhooks: { state: 'registered' },
        chargesAwaitingOutcome: 0,
        lastStatementCheck: { difference: 0, providerBalance: holds / 100 },
      },
    });
    expect(new Date(status.body.provider.token.expiresAt).getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect(status.body.provider.lastNotice).toMatchObject({ event: 'CashIn', outcome: 'held in suspense (no_charge)' });
  });

  it('a forged, stale or replayed notice is refused (401) or answered without effect, and changes nothing', async () => {
    const before = { books: await books(w), notices: await w.dbA.query('SELECT count(*)::int AS n FROM provider_notices'), events: await w.dbA.query('SELECT count(*)::int AS n FROM events') };
    // Replayed: the payout's real CashOut notice, exactly as B sent it.
    const cashOut = w.gate.carried.find((n) => JSON.parse(n.body).event === 'CashOut' && JSON.parse(n.body).status === 'CONFIRMED')!;
    expect(cashOut).toBeDefined();
    const replay = await fetch(`${w.a.url}/network/provider/webhooks`, { method: 'POST', headers: cashOut.headers, body: cashOut.body });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    // Forged: money that never arrived, signed with another secret, or with a bad signature.
    const forgedBody = JSON.stringify({ event: 'CashIn', status: 'CONFIRMED', transactionId: 'x', externalId: null, endToEndId: 'E99999999202601011200FORGEDxxxxx', originalAmount: 1000, counterpart: null });
    const other = signatureHeaders('whsec_Zm9yZ2VkLXNlY3JldC1vZi10d2VudHktZm91cg==', 'msg_forged_1', new Date(), forgedBody);
    const stale = signatureHeaders(w.webhookSecret, 'msg_forged_2', new Date(Date.now() - 6 * 60_000), forgedBody);
    const tampered = { ...signatureHeaders(w.webhookSecret, 'msg_forged_3', new Date(), forgedBody.replace('1000', '1')) };
    for (const headers of [other, stale, tampered, {}]) {
      const res = await fetch(`${w.a.url}/network/provider/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: forgedBody });
      expect(res.status).toBe(401);
    }
    // A stale replay of a real notice is refused too (its timestamp re-signed 6 minutes back).
    const staleReplay = signatureHeaders(w.webhookSecret, cashOut.headers['webhook-id']!, new Date(Date.now() - 6 * 60_000), cashOut.body);
    expect((await fetch(`${w.a.url}/network/provider/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...staleReplay }, body: cashOut.body })).status).toBe(401);
    expect(await books(w)).toEqual(before.books);
    expect((await w.dbA.query('SELECT count(*)::int AS n FROM provider_notices')).rows).toEqual(before.notices.rows);
    expect((await w.dbA.query('SELECT count(*)::int AS n FROM events')).rows).toEqual(before.events.rows);
    await expectBooksAgree(w, { customers: holds });
  });
});
