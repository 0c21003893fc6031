import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { systemClock } from '../../src/domain/clock.ts';
import type { Cents } from '../../src/domain/money.ts';
import { deliveriesRepo } from '../../src/webhooks/deliveries.repo.ts';
import { createRelay, type Relay } from '../../src/webhooks/relay.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/webhooks/transport.ts';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

let h: Harness;
let other: Database;
let rx: Receiver;
const transports: WebhookTransport[] = [];

/** A relay of another "instance": its own pool and HTTP client on the same schema. */
function relayOn(db: Database['db'], options: { batchSize?: number; maxInFlight?: number; pollMs?: number; leaseMs?: number } = {}): Relay {
  const transport = createWebhookTransport({ mode: 'sandbox' });
  transports.push(transport);
  return createRelay({ db, clock: h.clock, signingClock: systemClock, transport, logger: pino({ level: 'silent' }), ...options });
}

beforeAll(async () => {
  h = await startHarness();
  const schema = (await h.c.db.selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('s')).executeTakeFirstOrThrow()).s;
  other = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: 'memory://', schema });
  rx = await startReceiver();
});
afterAll(async () => {
  for (const t of transports) await t.close();
  await other.close();
  await rx.close();
  await h.close();
});

let seq = 0;
async function accountWith(paths: string[]) {
  const { id } = await h.createAccount();
  for (const p of paths) {
    const res = await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: rx.url(p) });
    expect(res.statusCode).toBe(201);
  }
  return id;
}

/** Requests per (webhook-id, path). */
function countsByMessage(paths: string[]) {
  const counts = new Map<string, number>();
  for (const r of rx.requests.filter((q) => paths.includes(q.path))) {
    const key = `${r.headers['webhook-id']} ${r.path}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe('webhook relay on real PostgreSQL', () => {
  it('two relays draining one outbox send each attempt exactly once (first attempts and retries)', async () => {
    expect(h.c.database.engine).toBe('postgres');
    const ok = `/ok-${++seq}`;
    const flaky = `/flaky-${seq}`;
    rx.on(flaky, (req) => {
      const n = rx.requests.filter((r) => r.path === flaky && r.headers['webhook-id'] === req.headers['webhook-id']).length;
      return n === 1 ? { status: 500 } : { status: 200 };
    });
    const accountId = await accountWith([ok, flaky]);
    const events = 150;
    for (let i = 0; i < events; i++) await h.c.deposits.deposit(accountId, (100 + i) as Cents);

    const a = relayOn(h.c.db, { batchSize: 10 });
    const b = relayOn(other.db, { batchSize: 10 });
    const [sentA, sentB] = await Promise.all([a.runDue(), b.runDue()]);
    expect(sentA + sentB).toBe(events * 2);
    expect(sentA).toBeGreaterThan(0);
    expect(sentB).toBeGreaterThan(0);
    h.clock.advance(6);
    const [retriedA, retriedB] = await Promise.all([a.runDue(), b.runDue()]);
    expect(retriedA + retriedB).toBe(events);

    const counts = countsByMessage([ok, flaky]);
    expect(counts.size).toBe(events * 2);
    for (const [key, n] of counts) expect(n, key).toBe(key.endsWith(flaky) ? 2 : 1);
    const deliveries = await h.c.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId).execute();
    expect(deliveries).toHaveLength(events * 2);
    expect(deliveries.filter((d) => d.status !== 'delivered')).toEqual([]);
    const logs = await h.c.db.selectFrom('webhook_logs').select(['delivery_id', 'attempt']).where('account_id', '=', accountId).execute();
    expect(logs).toHaveLength(events * 3);
    expect(new Set(logs.map((l) => `${l.delivery_id}/${l.attempt}`)).size).toBe(events * 3);
  });

  it('two background relays (the pipelined loop) deliver everything once', async () => {
    const p = `/bg-${++seq}`;
    const accountId = await accountWith([p]);
    const a = relayOn(h.c.db, { batchSize: 20, pollMs: 20 });
    const b = relayOn(other.db, { batchSize: 20, pollMs: 20 });
    a.start();
    b.start();
    const events = 200;
    await Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        for (let i = 0; i < events / 4; i++) await h.c.deposits.deposit(accountId, (1000 + lane * 100 + i) as Cents);
      }),
    );
    const deadline = performance.now() + 20_000;
    while (rx.to(p).length < events && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await Promise.all([a.stop(), b.stop()]);
    const counts = countsByMessage([p]);
    expect(counts.size).toBe(events);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const pending = await h.c.db.selectFrom('webhook_deliveries').select('status').where('account_id', '=', accountId).where('status', '!=', 'delivered').execute();
    expect(pending).toEqual([]);
  });

  it('a delivery claimed by a relay that dies is delivered by another once the lease ends', async () => {
    const p = `/orphan-${++seq}`;
    const accountId = await accountWith([p]);
    await h.c.deposits.deposit(accountId, 500 as Cents);
    // A short lease, so the test need not wait a minute of real time.
    const dying = relayOn(h.c.db, { leaseMs: 1500 });
    const survivor = relayOn(other.db);
    const claimed = await dying.claim();
    expect(claimed).toHaveLength(1);
    // The dying relay never sends nor writes a result. While its lease holds, nobody else takes it,
    // however far the service clock moves: the lease is on real time (issue 17 item 4).
    expect(await survivor.runDue()).toBe(0);
    h.clock.advance(3600);
    expect(await survivor.runDue()).toBe(0);
    let handled = 0;
    for (let i = 0; i < 100 && handled === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      handled = await survivor.runDue();
    }
    expect(handled).toBe(1);
    expect(rx.to(p)).toHaveLength(1);
    const delivery = await h.c.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, claim_token: null });
    // Should the first relay come back and write its stale result, its lost claim changes nothing.
    const late = await deliveriesRepo.writeResults(
      h.c.db,
      [{ id: claimed[0]!.id, claimToken: claimed[0]!.claimToken, status: 'failed', attempts: 1, nextAttemptAt: h.clock.now(), statusCode: 500, error: 'late', deliveredAt: null }],
      h.clock.now(),
    );
    expect(late).toBe(0);
    expect((await h.c.db.selectFrom('webhook_deliveries').select('status').where('id', '=', delivery.id).executeTakeFirstOrThrow()).status).toBe('delivered');
  });

  it('concurrent registrations never pass 3 active URLs per event, nor duplicate one URL', async () => {
    const { id } = await h.createAccount();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, n) => h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'refund_out', url: `https://race.example.com/${n}` })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(7);
    const same = await Promise.all(
      Array.from({ length: 6 }, () => h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'med_created', url: 'https://race.example.com/same' })),
    );
    expect(same.every((r) => r.statusCode === 201)).toBe(true);
    const rows = await h.c.db.selectFrom('webhooks').selectAll().where('account_id', '=', id).execute();
    expect(rows.filter((r) => r.event_type === 'refund_out' && r.is_active)).toHaveLength(3);
    const sameRows = rows.filter((r) => r.event_type === 'med_created');
    expect(sameRows).toHaveLength(1);
    expect(sameRows[0]!.version).toBe(6);
  });
});
