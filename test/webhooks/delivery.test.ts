import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_S } from '../../src/webhooks/retry-schedule.ts';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';

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
afterEach(async () => {
  // Nothing left due for the next test.
  await h.c.webhookRelay.runDue();
});

let pathSeq = 0;
const path = (name: string) => `/${name}-${++pathSeq}`;

async function register(accountId: number, eventType: string, url: string, headers?: Array<{ key: string; value: string }>) {
  const res = await h.admin('POST', `/admin/accounts/${accountId}/webhooks`, { eventType, url, ...(headers ? { headers } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

async function secretOf(accountId: number): Promise<string> {
  return (await h.admin('GET', `/admin/accounts/${accountId}/webhook-secret`)).json().secret;
}

async function logsOf(deliveryUrl: string) {
  return h.c.db.selectFrom('webhook_logs').selectAll().where('url', '=', deliveryUrl).orderBy('id').execute();
}

async function deliveryOf(deliveryUrl: string) {
  return h.c.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .selectAll('d')
    .where('w.url', '=', deliveryUrl)
    .executeTakeFirstOrThrow();
}

describe('webhook delivery', () => {
  it('fans one event out to its 3 URLs, with the custom headers and a verifiable Standard Webhooks signature', async () => {
    const { id } = await h.createAccount();
    const paths = [path('a'), path('b'), path('c')];
    await register(id, 'cash_in', rx.url(paths[0]!), [{ key: 'X-Api-Key', value: 'k-123' }, { key: 'Authorization', value: 'Bearer rx' }]);
    await register(id, 'cash_in', rx.url(paths[1]!));
    await register(id, 'cash_in', rx.url(paths[2]!));
    await register(id, 'cash_out', rx.url(path('not-this-event')));
    const tx = await h.deposit(id, 12.34);
    expect(await h.c.webhookRelay.runDue()).toBe(3);

    const event = await h.c.db.selectFrom('events').selectAll().where('account_id', '=', id).executeTakeFirstOrThrow();
    // The text emit stored (json keeps it as written, migration 1000).
    const stored = (await sql<{ text: string }>`SELECT payload::text AS text FROM events WHERE id = ${event.id}`.execute(h.c.db)).rows[0]!.text;
    // Compact, in the payload's own key order: JSON.stringify's text, not jsonb's respaced one.
    expect(stored).toBe(JSON.stringify(event.payload));
    const wh = new Webhook(await secretOf(id));
    for (const p of paths) {
      const got = rx.to(p);
      expect(got, p).toHaveLength(1);
      const req = got[0]!;
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers['webhook-id']).toBe(event.event_id);
      expect(req.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      // The body is exactly the text emit stored, and the signature covers it.
      expect(req.body).toBe(stored);
      const verified = wh.verify(req.body, req.headers as Record<string, string>) as Record<string, unknown>;
      expect(verified).toMatchObject({ event: 'CashIn', status: 'CONFIRMED', transactionId: tx.transactionId, originalAmount: 12.34 });
      // A tampered body does not verify.
      expect(() => wh.verify(req.body.replace('12.34', '99.99'), req.headers as Record<string, string>)).toThrow();
    }
    expect(rx.to(paths[0]!)[0]!.headers['x-api-key']).toBe('k-123');
    expect(rx.to(paths[0]!)[0]!.headers['authorization']).toBe('Bearer rx');
    expect(rx.to(paths[1]!)[0]!.headers['x-api-key']).toBeUndefined();
    for (const p of paths) {
      expect(await deliveryOf(rx.url(p))).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200 });
      const logs = await logsOf(rx.url(p));
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ kind: 'delivery', attempt: 1, status_code: 200, response_excerpt: 'ok', error: null });
      expect(logs[0]!.duration_ms).toBeGreaterThanOrEqual(0);
    }
    // Delivered once: draining again sends nothing.
    expect(await h.c.webhookRelay.runDue()).toBe(0);
    const metrics = await h.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/webhook_attempts_total\{outcome="delivered"\} [3-9]/);
  });

  it('retries a failing receiver 5 s later (on the service clock) and then delivers', async () => {
    const { id } = await h.createAccount();
    const p = path('flaky');
    rx.on(p, (_req, nth) => (nth === 1 ? { status: 503, body: 'down for maintenance' } : { status: 204 }));
    await register(id, 'cash_in', rx.url(p));
    await h.deposit(id, 1);
    await h.c.webhookRelay.runDue();
    expect(rx.to(p)).toHaveLength(1);
    const pending = await deliveryOf(rx.url(p));
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 503 });
    const wait = pending.next_attempt_at.getTime() - h.clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(4_500);
    expect(wait).toBeLessThanOrEqual(5_500);

    h.clock.advance(4);
    await h.c.webhookRelay.runDue();
    expect(rx.to(p)).toHaveLength(1);
    await h.advance(2); // the harness drives the relay like POST /sandbox/clock/advance
    expect(rx.to(p)).toHaveLength(2);
    expect(rx.to(p)[0]!.headers['webhook-id']).toBe(rx.to(p)[1]!.headers['webhook-id']);
    expect(await deliveryOf(rx.url(p))).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 204 });
    const logs = await logsOf(rx.url(p));
    expect(logs.map((l) => [l.attempt, l.status_code, l.response_excerpt])).toEqual([
      [1, 503, 'down for maintenance'],
      [2, 204, ''],
    ]);
  });

  it('follows the retry schedule 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (jittered), then marks the delivery failed', async () => {
    const { id } = await h.createAccount();
    const p = path('always-500');
    rx.on(p, () => ({ status: 500, body: 'x'.repeat(5000) }));
    await register(id, 'cash_in', rx.url(p));
    await h.deposit(id, 1);
    await h.c.webhookRelay.runDue();
    for (const delay of RETRY_DELAYS_S) {
      const before = await deliveryOf(rx.url(p));
      expect(before.status).toBe('pending');
      const wait = (before.next_attempt_at.getTime() - h.clock.now().getTime()) / 1000;
      expect(wait).toBeGreaterThanOrEqual(delay * 0.9 - 0.001);
      expect(wait).toBeLessThanOrEqual(delay * 1.1 + 0.001);
      h.clock.advance(Math.ceil(wait));
      expect(await h.c.webhookRelay.runDue()).toBe(1);
    }
    expect(rx.to(p)).toHaveLength(8);
    expect(await deliveryOf(rx.url(p))).toMatchObject({ status: 'failed', attempts: 8, last_status_code: 500 });
    const logs = await logsOf(rx.url(p));
    expect(logs.map((l) => l.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(logs[0]!.response_excerpt).toHaveLength(1024);
    h.clock.advance(86_400 * 7);
    expect(await h.c.webhookRelay.runDue()).toBe(0);
    expect(rx.to(p)).toHaveLength(8);
  });

  it('disables a registration that answers 410 Gone, and later events skip it', async () => {
    const { id } = await h.createAccount();
    const gone = path('gone');
    const fine = path('fine');
    rx.on(gone, () => ({ status: 410 }));
    const reg = await register(id, 'cash_in', rx.url(gone));
    await register(id, 'cash_in', rx.url(fine));
    await h.deposit(id, 1);
    await h.c.webhookRelay.runDue();
    expect(await deliveryOf(rx.url(gone))).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 410 });
    const list = (await h.admin('GET', `/admin/accounts/${id}/webhooks`)).json();
    expect(list.data.find((w: { id: number }) => w.id === reg.id)).toMatchObject({ isActive: false });
    await h.deposit(id, 2);
    h.clock.advance(60);
    await h.c.webhookRelay.runDue();
    expect(rx.to(gone)).toHaveLength(1);
    expect(rx.to(fine)).toHaveLength(2);
    // Registering it again turns it back on.
    const again = await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: rx.url(gone) });
    expect(again.json()).toMatchObject({ id: reg.id, isActive: true, version: 2 });
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    const { id } = await h.createAccount();
    const from = path('moved');
    const to = path('target');
    rx.on(from, () => ({ status: 302, headers: { location: rx.url(to) } }));
    await register(id, 'cash_in', rx.url(from));
    await h.deposit(id, 1);
    await h.c.webhookRelay.runDue();
    expect(rx.to(to)).toHaveLength(0);
    expect(await deliveryOf(rx.url(from))).toMatchObject({ status: 'pending', last_status_code: 302 });
  });

  it('logs a connection failure with its error and no status code, and retries it', async () => {
    const { id } = await h.createAccount();
    const closed = await startReceiver();
    const url = closed.url('/nobody');
    await closed.close();
    await register(id, 'cash_in', url);
    await h.deposit(id, 1);
    await h.c.webhookRelay.runDue();
    const [log] = await logsOf(url);
    expect(log).toMatchObject({ status_code: null, attempt: 1 });
    expect(log!.error).toMatch(/ECONNREFUSED/);
    expect((await deliveryOf(url)).status).toBe('pending');
  });

  it('cancels pending deliveries of a registration deleted before they were sent', async () => {
    const { id } = await h.createAccount();
    const p = path('deleted');
    const reg = await register(id, 'cash_in', rx.url(p));
    await h.deposit(id, 1);
    expect((await h.admin('DELETE', `/admin/webhooks/${reg.id}`)).statusCode).toBe(204);
    await h.c.webhookRelay.runDue();
    expect(rx.to(p)).toHaveLength(0);
    expect(await deliveryOf(rx.url(p))).toMatchObject({ status: 'cancelled', attempts: 0 });
  });

  it('POST /sandbox/clock/advance runs the retries that fell due', async () => {
    const { id } = await h.createAccount();
    const p = path('advance');
    rx.on(p, (_req, nth) => (nth === 1 ? { status: 500 } : { status: 200 }));
    await register(id, 'cash_in', rx.url(p));
    await h.deposit(id, 1);
    const first = await h.admin('POST', '/sandbox/clock/advance', { seconds: 1 });
    expect(first.statusCode).toBe(200);
    expect(rx.to(p)).toHaveLength(1);
    await h.admin('POST', '/sandbox/clock/advance', { seconds: 6 });
    expect(rx.to(p)).toHaveLength(2);
    expect((await deliveryOf(rx.url(p))).status).toBe('delivered');
  });

  it('emits no delivery for an account without registrations, and events of other accounts go to their own URLs', async () => {
    const a = await h.createAccount();
    const b = await h.createAccount();
    const pb = path('b-only');
    await register(b.id, 'cash_in', rx.url(pb));
    await h.deposit(a.id, 1);
    await h.deposit(b.id, 1);
    await h.c.webhookRelay.runDue();
    expect(rx.to(pb)).toHaveLength(1);
    const count = await h.c.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', a.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });
});
