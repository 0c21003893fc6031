import { Ajv } from 'ajv';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { harnessAndReceiver } from './suite.ts';
import { addServiceFormats } from '../../src/http/validation.ts';
import { EVENT_TYPES } from '../../src/webhooks/http-schemas.ts';
import { MedEventPayload, TransactionEventPayload } from '../../src/webhooks/payloads/schemas.ts';

/**
 * GET /admin/accounts/{id}/webhook-deliveries and POST /admin/accounts/{id}/webhooks/test (issue 21
 * item 3), against a real receiver.
 */
const suite = harnessAndReceiver();
const ajv = new Ajv({ allErrors: true, strict: false });
addServiceFormats(ajv);
/** The body's problems against the documented payload schema (none: it has the documented shape). */
const problems = (schema: object, body: unknown) => {
  const validate = ajv.compile(schema);
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
};

let seq = 0;
const path = (name: string) => `/${name}-${++seq}`;
const register = async (accountId: number, eventType: string, url: string) =>
  expect((await suite.h.admin('POST', `/admin/accounts/${accountId}/webhooks`, { eventType, url })).statusCode).toBe(201);

describe('GET /admin/accounts/{id}/webhook-deliveries', () => {
  it('lists every attempt newest first: event, transaction, URL, status code, duration, attempt number and next attempt', async () => {
    const account = await suite.h.createAccount();
    const flaky = path('flaky');
    suite.rx.on(flaky, (_req, nth) => (nth === 1 ? { status: 500, body: 'try later' } : { status: 204 }));
    await register(account.id, 'cash_in', suite.rx.url(flaky));
    const tx = await suite.h.deposit(account.id, 7.77);
    await suite.h.deliverWebhooks();
    const eventId = String(suite.rx.to(flaky)[0]!.headers['webhook-id']);

    const first = await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-deliveries`);
    expect(first.statusCode).toBe(200);
    const delivery = await suite.h.c.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', account.id).executeTakeFirstOrThrow();
    expect(first.json()).toEqual({
      data: [
        {
          id: expect.any(Number),
          kind: 'delivery',
          event: 'cash_in',
          eventId,
          transactionId: tx.transactionId,
          webhookId: expect.any(Number),
          url: suite.rx.url(flaky),
          status: 'failed',
          statusCode: 500,
          durationMs: expect.any(Number),
          attempt: 1,
          nextAttemptAt: delivery.next_attempt_at.toISOString(),
          error: null,
          responseExcerpt: 'try later',
          sentAt: suite.h.clock.now().toISOString(),
        },
      ],
      metadata: { total: 1, page: 1, pageSize: 20, totalPages: 1 },
    });
    // The retry (5 s later, jittered) succeeds: two attempts, and no next attempt any more.
    await suite.h.advance(10);
    const both = (await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-deliveries`)).json().data;
    expect(both.map((a: { attempt: number; statusCode: number; status: string; nextAttemptAt: string | null }) => [a.attempt, a.statusCode, a.status, a.nextAttemptAt])).toEqual([
      [2, 204, 'delivered', null],
      [1, 500, 'failed', null],
    ]);
    // An attempt that got no answer: statusCode null, the error says why.
    await register(account.id, 'cash_out', 'http://127.0.0.1:9/refused');
    const payout = await suite.h.api('POST', '/api/pix/cash-out', await suite.h.tokenFor(account.id), {
      value: 1, externalId: `x-${seq}`, details: { key: 'a@b.co', keyType: 'EMAIL', name: 'N', document: '52998224725' },
    });
    expect(payout.statusCode, payout.body).toBe(201);
    await suite.h.advance(5);
    const refused = (await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-deliveries?event=cash_out`)).json().data;
    expect(refused).toEqual([expect.objectContaining({ event: 'cash_out', statusCode: null, status: 'failed', attempt: 1, error: expect.any(String), transactionId: payout.json().transactionId })]);
    expect(refused[0].nextAttemptAt).not.toBeNull();
  });

  it('filters by status and event, pages, and refuses unknown values naming the field; unknown account 404', async () => {
    const account = await suite.h.createAccount();
    const ok = path('ok');
    const bad = path('bad');
    suite.rx.on(bad, () => ({ status: 400 }));
    await register(account.id, 'cash_in', suite.rx.url(ok));
    await register(account.id, 'cash_in', suite.rx.url(bad));
    for (const amount of [1, 2, 3]) await suite.h.deposit(account.id, amount);
    await suite.h.deliverWebhooks();
    const list = async (query: string) => (await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-deliveries?${query}`)).json();
    expect((await list('')).metadata.total).toBe(6);
    const delivered = await list('status=delivered');
    expect(delivered.metadata.total).toBe(3);
    expect(delivered.data.every((a: { url: string; statusCode: number }) => a.url === suite.rx.url(ok) && a.statusCode === 200)).toBe(true);
    const failed = await list('status=failed&pageSize=2');
    expect(failed.metadata).toEqual({ total: 3, page: 1, pageSize: 2, totalPages: 2 });
    expect(failed.data.every((a: { url: string; statusCode: number }) => a.url === suite.rx.url(bad) && a.statusCode === 400)).toBe(true);
    expect((await list('status=failed&pageSize=2&page=2')).data).toHaveLength(1);
    expect((await list('event=cash_in')).metadata.total).toBe(6);
    expect((await list('event=refund_in')).data).toEqual([]);
    // Another account's attempts are not listed here.
    const other = await suite.h.createAccount();
    expect((await suite.h.admin('GET', `/admin/accounts/${other.id}/webhook-deliveries`)).json().data).toEqual([]);

    for (const [query, field] of [
      ['status=pending', 'status'],
      ['event=cash', 'event'],
      ['page=0', 'page'],
      ['pageSize=101', 'pageSize'],
    ] as const) {
      const res = await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-deliveries?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toEqual([expect.stringMatching(new RegExp(`^${field} `))]);
    }
    expect((await suite.h.admin('GET', '/admin/accounts/987654/webhook-deliveries')).statusCode).toBe(404);
  });
});

describe('POST /admin/accounts/{id}/webhooks/test', () => {
  it('sends a signed test event to each active URL of that event and answers the attempts; they show in the delivery log', async () => {
    const account = await suite.h.createAccount();
    const a = path('test-a');
    const b = path('test-b');
    suite.rx.on(b, () => ({ status: 503 }));
    await register(account.id, 'cash_in', suite.rx.url(a));
    await register(account.id, 'cash_in', suite.rx.url(b));
    await register(account.id, 'cash_out', suite.rx.url(path('not-this-event')));
    const res = await suite.h.admin('POST', `/admin/accounts/${account.id}/webhooks/test`, { event: 'cash_in' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toEqual({
      event: 'cash_in',
      eventId: expect.stringMatching(/^msg_test_[0-9a-f]{32}$/),
      attempts: expect.arrayContaining([
        { webhookLogId: expect.any(Number), webhookId: expect.any(Number), url: suite.rx.url(a), statusCode: 200, durationMs: expect.any(Number), delivered: true, error: null, sentAt: expect.any(String) },
        { webhookLogId: expect.any(Number), webhookId: expect.any(Number), url: suite.rx.url(b), statusCode: 503, durationMs: expect.any(Number), delivered: false, error: null, sentAt: expect.any(String) },
      ]),
    });
    expect(answer.attempts).toHaveLength(2);
    const got = suite.rx.to(a);
    expect(got).toHaveLength(1);
    expect(got[0]!.headers['webhook-id']).toBe(answer.eventId);
    // Traced like every delivery (W3C traceparent).
    expect(got[0]!.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    const secret = (await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret;
    const body = new Webhook(secret).verify(got[0]!.body, got[0]!.headers as Record<string, string>) as Record<string, unknown>;
    expect(body).toMatchObject({ event: 'CashIn', movementType: 'CREDIT', metadata: { test: true } });
    expect(problems(TransactionEventPayload, body)).toEqual([]);
    // Nothing moved and no event was stored: the log alone remembers it, as kind "test".
    expect(await suite.h.balance(account.id)).toEqual({ available: 0, blocked: 0 });
    expect(await suite.h.c.db.selectFrom('events').select('id').where('account_id', '=', account.id).execute()).toEqual([]);
    const log = (await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-deliveries?event=cash_in`)).json().data;
    expect(log.map((l: { kind: string; id: number }) => [l.kind, l.id]).sort()).toEqual(answer.attempts.map((t: { webhookLogId: number }) => ['test', t.webhookLogId]).sort());
    expect(log[0]).toMatchObject({ event: 'cash_in', transactionId: null, eventId: null, attempt: null, nextAttemptAt: null });
    const audit = await suite.h.c.db.selectFrom('audit_log').selectAll().where('account_id', '=', account.id).where('action', '=', 'webhook.test').execute();
    expect(audit).toEqual([expect.objectContaining({ actor: 'admin-api', target: `webhook-test:${answer.eventId}` })]);
  });

  it('each event type sends a body of its documented shape', async () => {
    const account = await suite.h.createAccount();
    for (const event of EVENT_TYPES) await register(account.id, event, suite.rx.url(`/shape-${account.id}-${event}`));
    for (const event of EVENT_TYPES) {
      const res = await suite.h.admin('POST', `/admin/accounts/${account.id}/webhooks/test`, { event });
      expect(res.statusCode, event).toBe(200);
      const body = JSON.parse(suite.rx.to(`/shape-${account.id}-${event}`)[0]!.body);
      const schema = event.startsWith('med_') ? MedEventPayload : TransactionEventPayload;
      expect(problems(schema, body), event).toEqual([]);
    }
  });

  it('no URL for that event, an unknown event or account: a clear refusal', async () => {
    const account = await suite.h.createAccount();
    const none = await suite.h.admin('POST', `/admin/accounts/${account.id}/webhooks/test`, { event: 'refund_out' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining('refund_out') });
    const unknown = await suite.h.admin('POST', `/admin/accounts/${account.id}/webhooks/test`, { event: 'cash' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toEqual([expect.stringMatching(/^event /)]);
    expect((await suite.h.admin('POST', `/admin/accounts/${account.id}/webhooks/test`, {})).json().message).toEqual([expect.stringMatching(/^event /)]);
    expect((await suite.h.admin('POST', '/admin/accounts/987654/webhooks/test', { event: 'cash_in' })).statusCode).toBe(404);
  });
});
