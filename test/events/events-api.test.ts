import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { openSse, type SseClient } from './sse-client.ts';

let h: Harness;
let rx: Receiver;
let base: string;
const opened: SseClient[] = [];

beforeAll(async () => {
  h = await startHarness();
  rx = await startReceiver();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of opened) s.close();
  await rx.close();
  await h.close();
});

async function sse(path: string, headers: Record<string, string>) {
  const client = await openSse(`${base}${path}`, headers);
  opened.push(client);
  return client;
}

let pathSeq = 0;
async function accountWithHook(eventType = 'cash_in') {
  const account = await h.createAccount();
  const path = `/hook-${++pathSeq}`;
  const res = await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType, url: rx.url(path) });
  expect(res.statusCode, res.body).toBe(201);
  const token = await h.tokenFor(account.id, ['webhook:read', 'webhook:write']);
  return { ...account, path, token };
}

const listOf = async (token: string, query = '') => {
  const res = await h.api('GET', `/api/events${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Array<{ id: string; type: string; createdAt: string; payload: Record<string, unknown> }>; metadata: { size: number; hasMore: boolean; next: string | null } };
};

describe('GET /api/events', () => {
  it('lists the account\'s events oldest first, each payload byte for byte the body its webhook carried, with the webhook-id as id', async () => {
    const a = await accountWithHook();
    const first = await h.deposit(a.id, 10.01);
    const second = await h.deposit(a.id, 20.02);
    await h.deliverWebhooks();
    const got = rx.to(a.path);
    expect(got).toHaveLength(2);

    const res = await h.api('GET', '/api/events', a.token);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json();
    expect(list.data.map((e: { id: string }) => e.id)).toEqual(got.map((r) => r.headers['webhook-id']));
    expect(list.data.map((e: { payload: { transactionId: string } }) => e.payload.transactionId)).toEqual([first.transactionId, second.transactionId]);
    expect(list.data[0].type).toBe('cash_in');
    expect(new Date(list.data[0].createdAt).toISOString()).toBe(list.data[0].createdAt);
    // Byte for byte: the answer's text holds each received body as it was sent.
    for (const r of got) expect(res.body).toContain(`"payload":${r.body}}`);
    expect(list.metadata).toEqual({ size: 100, hasMore: false, next: list.data[1].id });

    const one = await h.api('GET', `/api/events/${list.data[0].id}`, a.token);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.body).toBe(`{"id":"${list.data[0].id}","type":"cash_in","createdAt":"${list.data[0].createdAt}","payload":${got[0]!.body}}`);
  });

  it('pages with after and size, and filters by type (one or several)', async () => {
    const a = await accountWithHook();
    for (const value of [1, 2, 3]) await h.deposit(a.id, value);
    const all = (await listOf(a.token)).data;
    expect(all).toHaveLength(3);

    const page1 = await listOf(a.token, '?size=2');
    expect(page1.data.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    expect(page1.metadata).toMatchObject({ size: 2, hasMore: true, next: all[1]!.id });
    const page2 = await listOf(a.token, `?size=2&after=${page1.metadata.next}`);
    expect(page2.data.map((e) => e.id)).toEqual([all[2]!.id]);
    expect(page2.metadata).toMatchObject({ hasMore: false, next: all[2]!.id });
    const page3 = await listOf(a.token, `?after=${all[2]!.id}`);
    expect(page3.data).toEqual([]);
    expect(page3.metadata.next).toBe(all[2]!.id);

    expect((await listOf(a.token, '?type=cash_out')).data).toEqual([]);
    expect((await listOf(a.token, '?type=cash_out,cash_in')).data).toHaveLength(3);
  });

  it('answers 400 naming the field for bad input', async () => {
    const a = await accountWithHook();
    const other = await accountWithHook();
    await h.deposit(other.id, 1);
    const foreign = (await listOf(other.token)).data[0]!.id;
    for (const [query, field] of [
      ['?type=cash', 'type'],
      ['?size=0', 'size'],
      ['?size=1001', 'size'],
      ['?size=abc', 'size'],
      ['?after=msg_nope', 'after'],
      [`?after=${foreign}`, 'after'],
    ] as const) {
      const res = await h.api('GET', `/api/events${query}`, a.token);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(JSON.stringify(res.json().message ?? res.json()), query).toContain(field);
    }
  });

  it("shows each account only its own events: another account's event id is a 404", async () => {
    const a = await accountWithHook();
    const b = await accountWithHook();
    await h.deposit(b.id, 5);
    const [bEvent] = (await listOf(b.token)).data;
    expect((await listOf(a.token)).data).toEqual([]);
    const res = await h.api('GET', `/api/events/${bEvent!.id}`, a.token);
    expect(res.statusCode).toBe(404);
    expect((await h.api('GET', `/api/events/${bEvent!.id}`, b.token)).statusCode).toBe(200);
  });

  it('needs webhook:read to read and webhook:write to replay', async () => {
    const account = await h.createAccount();
    const readOnly = await h.tokenFor(account.id, ['webhook:read']);
    const noWebhooks = await h.tokenFor(account.id, ['balance:read']);
    expect((await h.api('GET', '/api/events', noWebhooks)).statusCode).toBe(403);
    expect((await h.api('GET', '/api/events/msg_x', noWebhooks)).statusCode).toBe(403);
    expect((await h.api('GET', '/api/events/stream', noWebhooks)).statusCode).toBe(403);
    expect((await h.api('GET', '/api/events', readOnly)).statusCode).toBe(200);
    const replay = await h.api('POST', '/api/webhook-deliveries/replay', readOnly, { since: '2026-01-01T00:00:00Z', status: 'failed' });
    expect(replay.statusCode).toBe(403);
    expect((await h.app.inject({ method: 'GET', url: '/api/events' })).statusCode).toBe(401);
  });
});

describe('GET /api/events/stream', () => {
  it('streams the events created after it opened, then resumes with Last-Event-ID losing and repeating nothing', async () => {
    const a = await accountWithHook();
    await h.deposit(a.id, 1); // before the stream: not on it
    const auth = { authorization: `Bearer ${a.token}` };
    const s1 = await sse('/api/events/stream', auth);
    expect(s1.status).toBe(200);
    expect(s1.headers['content-type']).toMatch(/^text\/event-stream/);
    await s1.waitForComment(/stream open/);
    await h.deposit(a.id, 2);
    await h.deposit(a.id, 3);
    await s1.waitForEvents(2);
    s1.close();
    // Events keep coming while the client is away.
    await h.deposit(a.id, 4);
    await h.deposit(a.id, 5);
    const s2 = await sse('/api/events/stream', { ...auth, 'last-event-id': s1.events[1]!.id! });
    await s2.waitForEvents(2);
    await h.deposit(a.id, 6);
    await s2.waitForEvents(3);

    const all = (await listOf(a.token)).data;
    expect(all).toHaveLength(6);
    const streamed = [...s1.events, ...s2.events];
    expect(streamed.map((e) => e.id)).toEqual(all.slice(1).map((e) => e.id));
    for (const e of streamed) expect(e.event).toBe('cash_in');
    // data: the payload JSON exactly as the webhook carries it.
    await h.deliverWebhooks();
    const bodies = new Map(rx.to(a.path).map((r) => [r.headers['webhook-id'], r.body]));
    for (const e of streamed) expect(e.data).toBe(bodies.get(e.id));
    expect(s2.raw).toContain(`id: ${all[5]!.id}\nevent: cash_in\ndata: ${bodies.get(all[5]!.id)}\n\n`);
    s2.close();
  });

  it('filters by type and answers 400 naming Last-Event-ID or type when unknown', async () => {
    const a = await accountWithHook();
    const auth = { authorization: `Bearer ${a.token}` };
    const outs = await sse('/api/events/stream?type=cash_out', auth);
    const ins = await sse('/api/events/stream?type=cash_in', auth);
    await ins.waitForComment(/stream open/);
    await outs.waitForComment(/stream open/);
    await h.deposit(a.id, 7);
    await ins.waitForEvents(1);
    expect(outs.events).toEqual([]);
    outs.close();
    ins.close();

    const badId = await h.api('GET', '/api/events/stream', a.token, undefined, { 'last-event-id': 'msg_unknown' });
    expect(badId.statusCode).toBe(400);
    expect(badId.body).toContain('Last-Event-ID');
    const badType = await h.api('GET', '/api/events/stream?type=nope', a.token);
    expect(badType.statusCode).toBe(400);
    expect(badType.body).toContain('type');
  });

  it('sends a comment heartbeat at least every 15 s', async () => {
    const a = await accountWithHook();
    const s = await sse('/api/events/stream', { authorization: `Bearer ${a.token}` });
    await s.waitForComment(/stream open/);
    const opened = Date.now();
    await s.waitForComment(/heartbeat/, 20_000);
    expect(Date.now() - opened).toBeLessThanOrEqual(15_000);
    s.close();
  }, 40_000);

  it('holds at most 5 streams per account open at once (429), and frees a slot when a client leaves', async () => {
    const a = await accountWithHook();
    const auth = { authorization: `Bearer ${a.token}` };
    const five = [];
    for (let i = 0; i < 5; i++) five.push(await sse('/api/events/stream', auth));
    for (const s of five) await s.waitForComment(/stream open/);
    const sixth = await sse('/api/events/stream', auth);
    expect(sixth.status).toBe(429);
    five[0]!.close();
    // The slot frees once the server saw the client leave.
    let again: SseClient | undefined;
    for (let tries = 0; tries < 50; tries++) {
      again = await sse('/api/events/stream', auth);
      if (again.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(again!.status).toBe(200);
    for (const s of [...five, again!]) s.close();
  });
});

describe('POST /api/webhook-deliveries/replay', () => {
  it('queues again exactly the deliveries that failed since T, signed as usual, and not twice', async () => {
    const a = await accountWithHook();
    const since = h.clock.now().toISOString();
    let failing = true;
    rx.on(a.path, () => (failing ? { status: 500 } : { status: 200 }));
    await h.deposit(a.id, 11);
    await h.deposit(a.id, 12);
    // Every retry fails until the 8th attempt ends the deliveries for good.
    for (let i = 0; i < 10; i++) await h.advance(12 * 3600);
    expect(rx.to(a.path)).toHaveLength(16);
    failing = false;
    // The clock moved 5 days: the account's token expired meanwhile.
    a.token = await h.tokenFor(a.id, ['webhook:read', 'webhook:write']);
    // A delivered event (not replayed when asking for the failed ones).
    await h.deposit(a.id, 13);
    await h.deliverWebhooks();
    expect(rx.to(a.path)).toHaveLength(17);

    const replay = await h.api('POST', '/api/webhook-deliveries/replay', a.token, { since, status: 'failed' });
    expect(replay.statusCode, replay.body).toBe(202);
    expect(replay.json()).toEqual({ queued: 2 });
    // Asked again before they went out: nothing more is queued.
    expect((await h.api('POST', '/api/webhook-deliveries/replay', a.token, { since, status: 'failed' })).json()).toEqual({ queued: 0 });
    await h.deliverWebhooks();
    const resent = rx.to(a.path).slice(17);
    expect(resent).toHaveLength(2);
    const events = (await listOf(a.token)).data;
    expect(resent.map((r) => r.headers['webhook-id'])).toEqual(events.slice(0, 2).map((e) => e.id));
    const secret = (await h.admin('GET', `/admin/accounts/${a.id}/webhook-secret`)).json().secret;
    for (const r of resent) expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    // Now delivered: nothing failed is left; `all` sends every event again.
    expect((await h.api('POST', '/api/webhook-deliveries/replay', a.token, { since, status: 'failed' })).json()).toEqual({ queued: 0 });
    expect((await h.api('POST', '/api/webhook-deliveries/replay', a.token, { since, status: 'all', type: 'cash_in' })).json()).toEqual({ queued: 3 });
    await h.deliverWebhooks();
    expect(rx.to(a.path)).toHaveLength(22);
    // A later `since` leaves the earlier events out.
    const later = new Date(h.clock.now().getTime() + 1000).toISOString();
    expect((await h.api('POST', '/api/webhook-deliveries/replay', a.token, { since: later, status: 'all' })).json()).toEqual({ queued: 0 });
  }, 60_000);

  it('answers 400 naming the field for bad input', async () => {
    const a = await accountWithHook();
    for (const [body, field] of [
      [{ status: 'failed' }, 'since'],
      [{ since: 'yesterday', status: 'failed' }, 'since'],
      [{ since: '2026-11-20T00:00:00Z' }, 'status'],
      [{ since: '2026-11-20T00:00:00Z', status: 'some' }, 'status'],
      [{ since: '2026-11-20T00:00:00Z', status: 'all', type: 'cash' }, 'type'],
    ] as const) {
      const res = await h.api('POST', '/api/webhook-deliveries/replay', a.token, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body, JSON.stringify(body)).toContain(field);
    }
  });
});

describe('the admin events API', () => {
  it('lists, gets, streams and replays an account\'s events under /admin/accounts/{id}', async () => {
    const a = await accountWithHook();
    const since = h.clock.now().toISOString();
    const s = await sse(`/admin/accounts/${a.id}/events/stream`, { authorization: `Bearer ${(await import('../harness.ts')).ADMIN_TOKEN}` });
    await s.waitForComment(/stream open/);
    await h.deposit(a.id, 3.21);
    await s.waitForEvents(1);
    const list = await h.admin('GET', `/admin/accounts/${a.id}/events`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((e: { id: string }) => e.id)).toEqual([s.events[0]!.id]);
    const one = await h.admin('GET', `/admin/accounts/${a.id}/events/${s.events[0]!.id}`);
    expect(one.json().payload).toEqual(JSON.parse(s.events[0]!.data));
    await h.deliverWebhooks();
    const replay = await h.admin('POST', `/admin/accounts/${a.id}/webhook-deliveries/replay`, { since, status: 'all' });
    expect(replay.statusCode, replay.body).toBe(202);
    expect(replay.json()).toEqual({ queued: 1 });
    s.close();

    const other = await h.createAccount();
    expect((await h.admin('GET', `/admin/accounts/${other.id}/events/${s.events[0]!.id}`)).statusCode).toBe(404);
    expect((await h.admin('GET', '/admin/accounts/99999999/events')).statusCode).toBe(404);
    expect((await h.admin('POST', '/admin/accounts/99999999/webhook-deliveries/replay', { since, status: 'all' })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: `/admin/accounts/${a.id}/events` })).statusCode).toBe(401);
  });
});
