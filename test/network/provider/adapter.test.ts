import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endToEndId } from '../../../src/domain/ids.ts';
import { signatureHeaders } from '../../../src/webhooks/signature.ts';
import { cpf } from '../../factories.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../../harness.ts';
import { providerEnv, TEST_PROVIDER_WEBHOOK_SECRET } from '../../provider-env.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';

/**
 * The provider adapter in one process on PGlite, against a scripted provider: every notice the
 * provider sends mapped onto our books (charges paid, or held in suspense when they cannot be;
 * payouts settled, rejected and returned; MED opened and decided), each idempotent; charge
 * reconciliation; webhook registration refused; the statement check's difference; the status.
 * The real provider (this service in sandbox mode) is in test/postgres/provider-end-to-end.test.ts.
 */
let h: Harness;
let fake: FakeProvider;
let seq = 0;
const e2e = () => endToEndId('E', '60746948', h.clock.now());

beforeAll(async () => {
  fake = await startFakeProvider();
  h = await startHarness({ env: { MODE: 'production', ADMIN_TOKEN, TRUSTED_PROXIES: '127.0.0.1', ...providerEnv({ PROVIDER_URL: fake.url }) } });
  await h.runJobs(); // the start's webhook registration and statement check
});
afterAll(async () => {
  await h.close();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

/** A notice signed as the provider signs it. */
async function notice(payload: Record<string, unknown>, id = `msg_${++seq}`) {
  const body = JSON.stringify(payload);
  return h.app.inject({
    method: 'POST',
    url: '/network/provider/webhooks',
    headers: { 'content-type': 'application/json', ...signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, id, new Date(), body) },
    payload: body,
  });
}
const cashIn = (externalId: string | null, amount: number, endToEnd: string, status = 'CONFIRMED') => ({
  event: 'CashIn',
  status,
  transactionType: 'PIX',
  movementType: 'CREDIT',
  transactionId: `p-${seq}`,
  externalId,
  endToEndId: endToEnd,
  originalAmount: amount,
  feeAmount: 0,
  finalAmount: amount,
  errorCode: null,
  errorMessage: null,
  counterpart: { name: 'Maria Pagadora', document: '***.456.789-**', bank: { bankISPB: '60746948', bankName: 'Banco', bankCode: '237' } },
});

async function customerWithCharge(value: number) {
  const account = await h.createAccount();
  const token = await h.tokenFor(account.id);
  const res = await h.api('POST', '/api/pix/cash-in', token, { transaction: { value, description: 'Pedido', externalId: `pedido-${++seq}` }, payer: { fullName: 'Cliente', document: cpf(seq) } });
  expect(res.statusCode, res.body).toBe(201);
  return { account, token, charge: res.json() as { transactionId: string; pixCode: string } };
}
const tx = (uuid: string) => h.c.db.selectFrom('transactions').selectAll().where('transaction_id', '=', uuid).executeTakeFirstOrThrow();
const systemBalance = async (code: string) => (await h.c.checkLedger()).systemAccounts.find((a) => a.code === code)!.balance;

describe('provider adapter: charges', () => {
  it("registers our charge at the provider with our id as its externalId and answers the provider's code", async () => {
    const { charge } = await customerWithCharge(25);
    const registered = fake.requests.find((r) => r.path === '/api/pix/cash-in')!;
    expect(registered.body).toMatchObject({ transaction: { value: 25, externalId: charge.transactionId, expirationTime: 86400 }, payer: { fullName: 'Cliente' } });
    expect(registered.headers.authorization).toMatch(/^Bearer fake-token-/);
    expect(charge.pixCode).toBe(`00020126fake${charge.transactionId}`);
  });

  it('a CashIn notice for our charge credits the customer once; the same notice again, or resent under a new id, changes nothing', async () => {
    const { account, charge } = await customerWithCharge(40);
    const paid = cashIn(charge.transactionId, 40, e2e());
    const first = await notice(paid, 'msg_paid_1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(await tx(charge.transactionId)).toMatchObject({ status: 'CONFIRMED', end_to_end_id: paid.endToEndId });
    expect(await h.balance(account.id)).toEqual({ available: 40, blocked: 0 });
    expect((await notice(paid, 'msg_paid_1')).json()).toEqual({ received: true, duplicate: true });
    expect((await notice(paid, 'msg_paid_1_resent')).statusCode).toBe(200);
    expect(await h.balance(account.id)).toEqual({ available: 40, blocked: 0 });
    const row = await h.c.db.selectFrom('provider_notices').selectAll().where('webhook_id', '=', 'msg_paid_1').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ event: 'CashIn', outcome: 'charge paid' });
    expect(row.handled_at).not.toBeNull();
  });

  it('money for a charge that can no longer take it (expired meanwhile) is real: held in suspense, then assigned by an operator', async () => {
    const { account, charge } = await customerWithCharge(30);
    await h.advance(86_401); // our charge expires (CHARGE_EXPIRED)
    expect((await tx(charge.transactionId)).status).toBe('ERROR');
    const late = cashIn(charge.transactionId, 30, e2e());
    const suspenseBefore = await systemBalance('suspense');
    expect((await notice(late)).statusCode).toBe(200);
    expect(await h.balance(account.id)).toEqual({ available: 0, blocked: 0 });
    expect((await systemBalance('suspense')) - suspenseBefore).toBe(3000);
    const listed = await h.admin('GET', '/admin/network/suspense?status=OPEN');
    const item = listed.json().data.find((i: { endToEndId: string }) => i.endToEndId === late.endToEndId);
    expect(item).toMatchObject({ status: 'OPEN', amount: 30, reason: 'charge_not_payable', chargeReference: charge.transactionId, payer: { name: 'Maria Pagadora', ispb: '60746948' } });
    expect((await h.admin('POST', `/admin/network/suspense/${item.id}/assign`, { accountId: 999_999 })).statusCode).toBe(404);
    expect((await h.admin('POST', `/admin/network/suspense/${item.id}/assign`, {})).json().message).toEqual(expect.arrayContaining([expect.stringContaining('accountId')]));
    const assigned = await h.admin('POST', `/admin/network/suspense/${item.id}/assign`, { accountId: account.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await h.balance(account.id)).toEqual({ available: 30, blocked: 0 });
    expect(await systemBalance('suspense')).toBe(suspenseBefore);
    expect(await tx(assigned.json().assignedTransactionId)).toMatchObject({ kind: 'PAYMENT', status: 'CONFIRMED', origin: 'suspense', end_to_end_id: late.endToEndId });
    const audit = await h.c.db.selectFrom('audit_log').selectAll().where('action', '=', 'suspense.assign').execute();
    expect(audit.map((a) => a.target)).toContain(`suspense:${item.id}`);
    expect((await h.admin('POST', `/admin/network/suspense/${item.id}/assign`, { accountId: account.id })).statusCode).toBe(409);
    // The same PIX notified again (a new message) is not held twice.
    await notice(late);
    expect((await h.admin('GET', '/admin/network/suspense')).json().data.filter((i: { endToEndId: string }) => i.endToEndId === late.endToEndId)).toHaveLength(1);
  });

  it('PIX sent straight to the pooled key (no charge) goes to suspense; a failed cash-in of ours ends our book entry only', async () => {
    const straight = cashIn(null, 12.5, e2e());
    expect((await notice(straight)).statusCode).toBe(200);
    const open = (await h.admin('GET', '/admin/network/suspense?status=OPEN')).json();
    expect(open.data.find((i: { endToEndId: string }) => i.endToEndId === straight.endToEndId)).toMatchObject({ reason: 'no_charge', amount: 12.5, chargeReference: null });
    const { charge } = await customerWithCharge(5);
    await notice(cashIn(charge.transactionId, 5, e2e(), 'ERROR'));
    const book = await h.c.db.selectFrom('provider_charges').selectAll().where('reference', '=', charge.transactionId).executeTakeFirstOrThrow();
    expect(book.finished_at).not.toBeNull();
    expect((await tx(charge.transactionId)).status).toBe('PENDING'); // our own expiry ends it
  });

  it('reconciliation: a charge whose notice never came is asked about after PROVIDER_RECONCILE_AFTER_S and credited', async () => {
    const { account, charge } = await customerWithCharge(18);
    fake.transactions.set(charge.transactionId, {
      id: 'p-777', externalId: charge.transactionId, type: 'PAYMENT', status: 'PENDING', originalAmount: 18, feeAmount: 0, finalAmount: 18, e2eId: null,
      counterpartName: null, counterpartDocument: null, counterpartAccountIspb: null, createdAt: '', updatedAt: '', processedAt: null,
    });
    await h.advance(60);
    expect((await tx(charge.transactionId)).status).toBe('PENDING'); // still waiting at the provider: asked again later
    const next = await h.c.db.selectFrom('jobs').select(['run_at', 'payload']).where('kind', '=', 'provider.charge_check').execute();
    const mine = next.find((j) => (j.payload as { reference: string }).reference === charge.transactionId)!;
    expect(mine.payload).toEqual({ reference: charge.transactionId, n: 1 });
    expect(mine.run_at.getTime() - h.clock.now().getTime()).toBe(60_000);
    const paidE2e = e2e();
    fake.transactions.set(charge.transactionId, { ...fake.transactions.get(charge.transactionId), status: 'CONFIRMED', e2eId: paidE2e, counterpartName: 'João', counterpartDocument: '***.111.222-**', counterpartAccountIspb: '60746948' });
    await h.advance(60);
    expect(await tx(charge.transactionId)).toMatchObject({ status: 'CONFIRMED', end_to_end_id: paidE2e });
    expect(await h.balance(account.id)).toEqual({ available: 18, blocked: 0 });
    expect(fake.requests.filter((r) => r.path === `/api/pix/transaction/${charge.transactionId}`)).toHaveLength(2);
    // Paid: nothing more is asked about it.
    const left = await h.c.db.selectFrom('jobs').select('payload').where('kind', '=', 'provider.charge_check').execute();
    expect(left.filter((j) => (j.payload as { reference: string }).reference === charge.transactionId)).toEqual([]);
    const status = (await h.admin('GET', '/admin/network/status')).json();
    expect(status.provider.lastReconciliation).toMatchObject({ kind: 'charges', asked: 1, finished: 1 });
  });
});

describe('provider adapter: payouts, returns and MED', () => {
  async function paidCustomer(value: number) {
    const c = await customerWithCharge(value);
    const payment = cashIn(c.charge.transactionId, value, e2e());
    await notice(payment);
    return { ...c, received: payment.endToEndId };
  }
  const payout = (token: string, value: number) =>
    h.api('POST', '/api/pix/cash-out', token, { value, externalId: `saque-${++seq}`, details: { key: `loja${seq}@x.example`, keyType: 'EMAIL', name: 'Loja', document: cpf(seq + 500) } });

  it('a payout goes to the provider as a cash-out keyed by our id; its CashOut ERROR ends it with the provider\'s code and the money back', async () => {
    const { account, token } = await paidCustomer(50);
    const res = await payout(token, 20);
    expect(res.statusCode).toBe(201);
    await h.runJobs();
    const sent = fake.requests.find((r) => r.path === '/api/pix/cash-out')!;
    expect(sent.body).toMatchObject({ value: 20, externalId: res.json().transactionId, details: { keyType: 'EMAIL', name: 'Loja' } });
    expect(await h.balance(account.id)).toEqual({ available: 30, blocked: 20 });
    await notice({ event: 'CashOut', status: 'ERROR', transactionId: 'p-1', externalId: res.json().transactionId, endToEndId: null, originalAmount: 20, errorCode: 'TAX_ID_MISMATCH', errorMessage: 'Documento não confere', counterpart: null });
    expect(await tx(res.json().transactionId)).toMatchObject({ status: 'ERROR', error_code: 'TAX_ID_MISMATCH', error_message: 'Documento não confere' });
    expect(await h.balance(account.id)).toEqual({ available: 50, blocked: 0 });
  });

  it("a definitive refusal at submission (400 PIX_INVALID_PIX_KEY) ends the payout ERROR with that code; the provider's trouble leaves it PENDING", async () => {
    const { account, token } = await paidCustomer(30);
    fake.cashOutAnswer = { status: 400, body: { statusCode: 400, code: 'PIX_INVALID_PIX_KEY', errorCode: 'PIX_INVALID_PIX_KEY', message: 'The key was not found in the PIX key directory.' } };
    const refused = await payout(token, 10);
    await h.runJobs();
    expect(await tx(refused.json().transactionId)).toMatchObject({ status: 'ERROR', error_code: 'PIX_INVALID_PIX_KEY' });
    fake.cashOutAnswer = { status: 503, body: { message: 'maintenance' } };
    const waiting = await payout(token, 10);
    await h.runJobs();
    expect((await tx(waiting.json().transactionId)).status).toBe('PENDING');
    expect(await h.balance(account.id)).toEqual({ available: 20, blocked: 10 });
    // The retry found the provider back: taken, then settled by its notice.
    fake.transactions.delete(waiting.json().transactionId);
    await h.advance(30);
    await notice({ event: 'CashOut', status: 'CONFIRMED', transactionId: 'p-2', externalId: waiting.json().transactionId, endToEndId: e2e(), originalAmount: 10, errorCode: null, errorMessage: null, counterpart: null });
    expect((await tx(waiting.json().transactionId)).status).toBe('CONFIRMED');
  });

  it('a CashOutReversal returns (part of) a confirmed payout once, whatever the number of messages', async () => {
    const { account, token } = await paidCustomer(60);
    const res = await payout(token, 25);
    await h.runJobs();
    await notice({ event: 'CashOut', status: 'CONFIRMED', transactionId: 'p-3', externalId: res.json().transactionId, endToEndId: e2e(), originalAmount: 25, errorCode: null, errorMessage: null, counterpart: null });
    expect(await h.balance(account.id)).toEqual({ available: 35, blocked: 0 });
    const returned = {
      event: 'CashOutReversal', status: 'CONFIRMED', transactionId: 'p-4', externalId: null, endToEndId: endToEndId('D', '60746948', h.clock.now()), originalAmount: 10,
      errorCode: null, errorMessage: null, counterpart: null, parentTransaction: { transactionId: 'p-3', externalId: res.json().transactionId, endToEndId: null },
    };
    await notice(returned);
    await notice(returned); // resent as a new message
    expect(await h.balance(account.id)).toEqual({ available: 45, blocked: 0 });
    const back = await h.c.db.selectFrom('transactions').selectAll().where('kind', '=', 'REFUND_OUT').where('account_id', '=', account.id).execute();
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({ end_to_end_id: returned.endToEndId, original_amount: 1000 });
  });

  it('a refund goes to the provider as a refund-in of the original (found by its end-to-end id); its CashInReversal settles it', async () => {
    const { account, token, charge, received } = await paidCustomer(80);
    fake.transactions.set('original', { id: 'p-original', e2eId: received, status: 'CONFIRMED' });
    const res = await h.api('POST', `/api/pix/refund-in/${charge.transactionId}`, token, { refundValue: 30 });
    expect(res.statusCode, res.body).toBe(201);
    await h.runJobs();
    const sent = fake.requests.find((r) => r.path.startsWith('/api/pix/refund-in/'))!;
    const hex = res.json().transactionId.replaceAll('-', '');
    expect(sent).toMatchObject({ path: '/api/pix/refund-in/p-original', body: { refundValue: 30, externalId: hex } });
    await notice({ event: 'CashInReversal', status: 'CONFIRMED', transactionId: 'p-5', externalId: hex, endToEndId: endToEndId('D', '99999999', h.clock.now()), originalAmount: 30, errorCode: null, errorMessage: null, counterpart: null });
    expect((await tx(res.json().transactionId)).status).toBe('CONFIRMED');
    expect(await h.balance(account.id)).toEqual({ available: 50, blocked: 0 });
  });

  it('MED: MedCreated opens (and blocks) once per provider MED; MedAccepted walks it to ANALYZED APPROVED and refunds', async () => {
    const { account, received } = await paidCustomer(70);
    const med = { id: 4242, endToEnd: received, status: 'OPEN', cause: 'SCAM', description: 'Golpe', analysisResult: null, analysisDetails: null, requestingBank: { ispb: '60746948', name: 'Banco do Pagador' }, transaction: { amount: 70 } };
    expect((await notice({ event: 'MedCreated', med })).statusCode).toBe(200);
    await notice({ event: 'MedCreated', med }); // resent as a new message: not a second MED
    const meds = await h.c.db.selectFrom('meds').selectAll().where('account_id', '=', account.id).execute();
    expect(meds).toHaveLength(1);
    expect(meds[0]).toMatchObject({ status: 'OPEN', network_reference: '4242', cause: 'SCAM', requesting_bank_ispb: '60746948' });
    expect(await h.balance(account.id)).toEqual({ available: 0, blocked: 70 });
    await notice({ event: 'MedAccepted', med: { ...med, status: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: 'Fraude confirmada' } });
    const decided = await h.c.db.selectFrom('meds').selectAll().where('id', '=', meds[0]!.id).executeTakeFirstOrThrow();
    expect(decided).toMatchObject({ status: 'ANALYZED', analysis_result: 'APPROVED', analysis_details: 'Fraude confirmada' });
    expect(await h.balance(account.id)).toEqual({ available: 0, blocked: 0 });
    const again = await notice({ event: 'MedAccepted', med: { ...med, status: 'ANALYZED', analysisResult: 'APPROVED' } });
    expect(again.statusCode).toBe(200);
    // A MED on a PIX no customer of ours received changes nothing and says so.
    await notice({ event: 'MedCreated', med: { ...med, id: 4343, endToEnd: e2e() } }, 'msg_med_unknown');
    expect((await h.c.db.selectFrom('provider_notices').select('outcome').where('webhook_id', '=', 'msg_med_unknown').executeTakeFirstOrThrow()).outcome).toMatch(/no change/);
  });

  it('a forged notice is refused with 401 before anything is written; an unknown event is answered and ignored', async () => {
    const body = JSON.stringify(cashIn(null, 1000, e2e()));
    const forged = await h.app.inject({ method: 'POST', url: '/network/provider/webhooks', headers: { 'content-type': 'application/json', ...signatureHeaders('whsec_Zm9yZ2VkLXNlY3JldC1vZi10d2VudHktZm91cg==', 'msg_forged', new Date(), body) }, payload: body });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    expect(await h.c.db.selectFrom('provider_notices').select('webhook_id').where('webhook_id', '=', 'msg_forged').execute()).toEqual([]);
    // Said at warn (a wrong secret must be seen), but not once per forged request.
    const again = await h.app.inject({ method: 'POST', url: '/network/provider/webhooks', headers: { 'content-type': 'application/json' }, payload: body });
    expect(again.statusCode).toBe(401);
    const warned = h.logLines.filter((l) => l.includes('provider notice refused') && JSON.parse(l).level === 40);
    expect(warned).toHaveLength(1);
    const unknown = await notice({ event: 'SomethingNew' }, 'msg_unknown');
    expect(unknown.statusCode).toBe(200);
    expect((await h.c.db.selectFrom('provider_notices').select('outcome').where('webhook_id', '=', 'msg_unknown').executeTakeFirstOrThrow()).outcome).toMatch(/ignored: unknown event/);
  });
});

describe('provider adapter: operations', () => {
  it('registered its webhooks on start; a provider that keeps the route disabled is said clearly', async () => {
    let status = (await h.admin('GET', '/admin/network/status')).json();
    expect(status.provider.webhooks).toMatchObject({ state: 'registered', url: 'https://pix.example.test/network/provider/webhooks' });
    fake.webhooksEnabled = false;
    await h.c.scheduler.schedule(h.c.db, 'provider.register_webhooks', h.clock.now(), {});
    await h.runJobs();
    status = (await h.admin('GET', '/admin/network/status')).json();
    expect(status.provider.webhooks).toMatchObject({ state: 'refused', message: expect.stringContaining('does not allow registering webhooks through its API') });
    expect(h.logLines.some((l) => l.includes("the provider's webhooks are NOT registered") && l.includes('dashboard'))).toBe(true);
    fake.webhooksEnabled = true;
  });

  it("the statement check records our books against the provider's balance, and any difference", async () => {
    const ours = -(await systemBalance('network:provider')) - (await systemBalance('med_clearing'));
    fake.balance = ours / 100 + 1.5;
    const check = await h.admin('POST', '/admin/network/statement-check');
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json()).toMatchObject({ providerBalance: ours / 100 + 1.5, ourBalance: ours / 100, difference: 1.5, error: null });
    expect(h.logLines.some((l) => l.includes('statement check: the provider balance differs from our books'))).toBe(true);
    const status = (await h.admin('GET', '/admin/network/status')).json();
    expect(status.provider.lastStatementCheck).toMatchObject({ difference: 1.5 });
    // The daily job: a check a day, the next one scheduled by each run.
    const daily = await h.c.db.selectFrom('jobs').select('run_at').where('kind', '=', 'provider.statement_check').execute();
    expect(daily).toHaveLength(1);
    expect(daily[0]!.run_at.getTime()).toBeGreaterThan(h.clock.now().getTime());
  });

  it('the status shows the circuit, the token, the last notice and the payouts awaiting an outcome', async () => {
    const status = (await h.admin('GET', '/admin/network/status')).json();
    expect(status).toMatchObject({
      adapter: 'provider',
      ledgerAccount: 'network:provider',
      provider: { url: fake.url, circuit: { state: 'closed', consecutiveFailures: 0 }, lastNotice: { event: expect.any(String), receivedAt: expect.any(String) } },
    });
    expect(new Date(status.provider.token.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(status.payoutsAwaitingOutcome.count).toBeGreaterThanOrEqual(0);
    const pending = await h.c.db.selectFrom('transactions').select('id').where('status', '=', 'PENDING').where('kind', 'in', ['WITHDRAW', 'REFUND_IN']).execute();
    expect(status.payoutsAwaitingOutcome.count).toBe(pending.length);
  });
});
