import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endToEndId } from '../../../src/domain/ids.ts';
import { signatureHeaders } from '../../../src/webhooks/signature.ts';
import { cpf } from '../../factories.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../../harness.ts';
import { providerEnv, TEST_PROVIDER_WEBHOOK_SECRET } from '../../provider-env.ts';
import { startReceiver, type Receiver } from '../../webhooks/receiver.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';

/**
 * Issue 31 item 4: one trace per payment. The `traceparent` of the request that created a cash-out
 * is stored with its step work and carried by everything the payment causes later, in other
 * processes' turns (jobs): the provider's submission and its retry, the status checks, the
 * settlement's `cash_out` event, its webhook delivery, the delivery's retry and a resend. Production
 * mode on a scripted provider; the webhooks go to a local receiver (the sandbox's URL rules and
 * transport, ContainerOptions.webhookRules).
 */
const TRACE_ID = '5a1b2c3d4e5f60718293a4b5c6d7e8f9';
const INCOMING_SPAN = '1122334455667788';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

let h: Harness;
let fake: FakeProvider;
let rx: Receiver;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeProvider();
  rx = await startReceiver();
  h = await startHarness({ env: { MODE: 'production', ADMIN_TOKEN, TRUSTED_PROXIES: '127.0.0.1', ...providerEnv({ PROVIDER_URL: fake.url }) }, webhookRules: 'sandbox' });
  await h.runJobs(); // the start's webhook registration and statement check
});
afterAll(async () => {
  await h.close();
  await rx.close();
  await fake.close();
});

const parts = (header: unknown) => {
  const match = TRACEPARENT.exec(String(header));
  expect(match, String(header)).not.toBeNull();
  return { traceId: match![1]!, spanId: match![2]!, flags: match![3]! };
};

/** A customer with money (a charge paid by the provider's notice) and a URL for its cash_out webhooks. */
async function customer() {
  const account = await h.createAccount();
  const token = await h.tokenFor(account.id);
  const charge = await h.api('POST', '/api/pix/cash-in', token, { transaction: { value: 50, description: 'Pedido', externalId: `pedido-trace-${++seq}` }, payer: { fullName: 'Cliente', document: cpf(seq + 900) } });
  expect(charge.statusCode, charge.body).toBe(201);
  const body = JSON.stringify({
    event: 'CashIn', status: 'CONFIRMED', transactionType: 'PIX', movementType: 'CREDIT', transactionId: `p-in-${seq}`, externalId: charge.json().transactionId,
    endToEndId: endToEndId('E', '60746948', h.clock.now()), originalAmount: 50, feeAmount: 0, finalAmount: 50, errorCode: null, errorMessage: null,
    counterpart: { name: 'Maria Pagadora', document: '***.456.789-**', bank: { bankISPB: '60746948', bankName: 'Banco', bankCode: '237' } },
  });
  const paid = await h.app.inject({ method: 'POST', url: '/network/provider/webhooks', headers: { 'content-type': 'application/json', ...signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, `msg_trace_${seq}`, new Date(), body) }, payload: body });
  expect(paid.statusCode, paid.body).toBe(200);
  const path = `/trace-payout-${seq}`;
  rx.on(path, (_req, nth) => (nth === 1 ? { status: 500 } : { status: 200 }));
  // Through the service: the admin route's schema refuses http:// in production before any rule applies.
  await h.c.webhooks.register(account.id, { eventType: 'cash_out', url: rx.url(path) });
  return { account, token, path };
}

async function cashOut(token: string, headers: Record<string, string>) {
  const res = await h.api('POST', '/api/pix/cash-out', token, { value: 20, externalId: `saque-trace-${++seq}`, details: { key: `loja${seq}@x.example`, keyType: 'EMAIL', name: 'Loja', document: cpf(seq + 500) } }, headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().transactionId as string;
}

/** The provider confirms the payout when asked about it (the status check), and the check falls due. */
async function settledByTheCheck(transactionId: string) {
  fake.transactions.set(transactionId, { id: `p-out-${seq}`, e2eId: endToEndId('E', '60746948', h.clock.now()), status: 'CONFIRMED', type: 'WITHDRAW' });
  await h.advance(3600);
  const row = await h.c.db.selectFrom('transactions').select('status').where('transaction_id', '=', transactionId).executeTakeFirstOrThrow();
  expect(row.status).toBe('CONFIRMED');
}

describe('one trace per payment (issue 31 item 4)', () => {
  it("a cash-out's provider calls (retries included), its settlement's webhook, the delivery's retry and a resend all carry the cash-out request's trace", async () => {
    const { account, token, path } = await customer();
    fake.requests.length = 0;
    // The provider's first answer to the submission is a 503: the adapter retries the call.
    fake.cashOutAnswer = { status: 503, body: { message: 'maintenance' } };
    const transactionId = await cashOut(token, { traceparent: `00-${TRACE_ID}-${INCOMING_SPAN}-01` });
    await h.runJobs(); // the submit step, in the scheduler's turn: no request is being served
    const submissions = fake.requests.filter((r) => r.path === '/api/pix/cash-out');
    expect(submissions).toHaveLength(2);
    for (const call of submissions) {
      expect(parts(call.headers.traceparent)).toMatchObject({ traceId: TRACE_ID, flags: '01' });
      expect(parts(call.headers.traceparent).spanId).not.toBe(INCOMING_SPAN);
    }
    expect(new Set(submissions.map((c) => parts(c.headers.traceparent).spanId)).size).toBe(2);

    await settledByTheCheck(transactionId);
    const checks = fake.requests.filter((r) => r.path === `/api/pix/transaction/${transactionId}`);
    expect(checks.length).toBeGreaterThan(0);
    for (const call of checks) expect(parts(call.headers.traceparent).traceId).toBe(TRACE_ID);

    // The settlement's event, its first delivery (answered 500) and the retry.
    const event = await h.c.db.selectFrom('events').select(['trace_id', 'type']).where('type', '=', 'cash_out').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(event.trace_id).toBe(TRACE_ID);
    await h.advance(10);
    const deliveries = rx.to(path);
    expect(deliveries).toHaveLength(2);
    for (const got of deliveries) expect(parts(got.headers.traceparent).traceId).toBe(TRACE_ID);

    // A resend asked without any traceparent still carries the payment's trace.
    const resend = await h.api('POST', `/api/resend-webhook/${transactionId}`, await h.tokenFor(account.id), {}); // the first token expired meanwhile
    expect(resend.statusCode, resend.body).toBe(200);
    const resent = rx.to(path);
    expect(resent).toHaveLength(3);
    expect(parts(resent[2]!.headers.traceparent).traceId).toBe(TRACE_ID);
  });

  it('a cash-out asked without a traceparent gets a trace of its own, the same for all it causes', async () => {
    const { token, path } = await customer();
    fake.requests.length = 0;
    const transactionId = await cashOut(token, {});
    await h.runJobs();
    const [submission] = fake.requests.filter((r) => r.path === '/api/pix/cash-out');
    const { traceId } = parts(submission!.headers.traceparent);
    expect(traceId).not.toBe(TRACE_ID);
    await settledByTheCheck(transactionId);
    const checks = fake.requests.filter((r) => r.path === `/api/pix/transaction/${transactionId}`);
    for (const call of checks) expect(parts(call.headers.traceparent).traceId).toBe(traceId);
    await h.advance(10);
    const deliveries = rx.to(path);
    expect(deliveries).toHaveLength(2);
    for (const got of deliveries) expect(parts(got.headers.traceparent).traceId).toBe(traceId);
  });
});
