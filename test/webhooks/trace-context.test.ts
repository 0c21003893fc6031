import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';

// Issue 25 item 4: W3C trace context reaches the webhook receiver.
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const INCOMING_SPAN = 'b7ad6b7169203331';
const TRACEPARENT_FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  h = await startHarness();
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await h.close();
});

let seq = 0;
async function accountWithReceiver(answers: 'ok' | 'fail-first' = 'ok') {
  const { id } = await h.createAccount();
  const path = `/trace-${++seq}`;
  if (answers === 'fail-first') rx.on(path, (_req, nth) => (nth === 1 ? { status: 500 } : { status: 200 }));
  const res = await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: rx.url(path) });
  expect(res.statusCode, res.body).toBe(201);
  return { id, path };
}

const deposit = (accountId: number, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/sandbox/deposits', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers }, payload: { accountId, amount: 5 } });

const parts = (header: unknown) => {
  const match = TRACEPARENT_FORMAT.exec(String(header));
  expect(match, String(header)).not.toBeNull();
  return { traceId: match![1]!, spanId: match![2]! };
};

describe('traceparent on webhook deliveries', () => {
  it('an event emitted by a traced request is delivered with its trace id and a new span id, the sampled flag kept', async () => {
    const { id, path } = await accountWithReceiver();
    expect((await deposit(id, { traceparent: `00-${TRACE_ID}-${INCOMING_SPAN}-01` })).statusCode).toBe(201);
    await h.deliverWebhooks();
    const [got] = rx.to(path);
    expect(got?.headers.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(parts(got!.headers.traceparent).spanId).not.toBe(INCOMING_SPAN);
    const event = await h.c.db.selectFrom('events').select('trace_id').where('account_id', '=', id).executeTakeFirstOrThrow();
    expect(event.trace_id).toBe(TRACE_ID);
  });

  it('an untraced (or malformed) request gives its event a fresh trace; each attempt of the event shares it, with its own span', async () => {
    const { id, path } = await accountWithReceiver('fail-first');
    expect((await deposit(id, { traceparent: `00-${TRACE_ID}-${INCOMING_SPAN}-01-not-allowed-in-version-00` })).statusCode).toBe(201);
    await h.deliverWebhooks();
    await h.advance(10); // the retry after 5 s (±10%)
    const attempts = rx.to(path);
    expect(attempts).toHaveLength(2);
    const [first, second] = attempts.map((a) => parts(a.headers.traceparent));
    expect(first!.traceId).not.toBe(TRACE_ID);
    expect(second!.traceId).toBe(first!.traceId);
    expect(second!.spanId).not.toBe(first!.spanId);
    const event = await h.c.db.selectFrom('events').select('trace_id').where('account_id', '=', id).executeTakeFirstOrThrow();
    expect(event.trace_id).toBe(first!.traceId);
  });

  it('a resend carries the event\'s trace id', async () => {
    const { id, path } = await accountWithReceiver();
    const tx = (await deposit(id, { traceparent: `00-${TRACE_ID}-${INCOMING_SPAN}-00` })).json() as { transactionId: string };
    await h.deliverWebhooks();
    const token = await h.tokenFor(id);
    const resent = await h.api('POST', `/api/resend-webhook/${tx.transactionId}`, token, {});
    expect(resent.statusCode, resent.body).toBeLessThan(300);
    const attempts = rx.to(path);
    expect(attempts).toHaveLength(2);
    // The event keeps the trace id only: the relay's later deliveries mark their span sampled.
    expect(parts(attempts[0]!.headers.traceparent).traceId).toBe(TRACE_ID);
    expect(parts(attempts[1]!.headers.traceparent).traceId).toBe(TRACE_ID);
    expect(parts(attempts[1]!.headers.traceparent).spanId).not.toBe(parts(attempts[0]!.headers.traceparent).spanId);
  });
});
