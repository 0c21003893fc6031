import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody } from '../payouts/helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

// Issue 25 item 4: backlog gauges and build_info on GET /metrics, read at scrape time.
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

async function scrape(): Promise<string> {
  const res = await h.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** The value of one series (name and exact label text), or undefined when it is not exposed. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('backlog gauges', () => {
  it('build_info{version} is 1 with package.json\'s version', async () => {
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
    expect(value(await scrape(), `build_info{version="${version}"}`)).toBe(1);
  });

  it('jobs_waiting{kind}: jobs due now and not run, by kind; back to 0 once they ran', async () => {
    let ran = 0;
    h.c.scheduler.register('test.backlog', async () => void (ran += 1));
    const now = h.clock.now();
    for (let i = 0; i < 3; i++) await h.c.scheduler.schedule(h.c.db, 'test.backlog', now);
    await h.c.scheduler.schedule(h.c.db, 'test.backlog', new Date(now.getTime() + 3_600_000)); // not due yet
    expect(value(await scrape(), 'jobs_waiting{kind="test.backlog"}')).toBe(3);
    await h.runJobs();
    expect(ran).toBe(3);
    expect(value(await scrape(), 'jobs_waiting{kind="test.backlog"}')).toBe(0);
  });

  it('webhook_deliveries_failing: a delivery being retried counts until it is delivered', async () => {
    const { id } = await h.createAccount();
    rx.on('/backlog', (_req, nth) => ({ status: nth === 1 ? 503 : 200 }));
    expect((await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: rx.url('/backlog') })).statusCode).toBe(201);
    expect(value(await scrape(), 'webhook_deliveries_failing')).toBe(0);
    await h.deposit(id, 1);
    await h.deliverWebhooks();
    expect(rx.to('/backlog')).toHaveLength(1);
    expect(value(await scrape(), 'webhook_deliveries_failing')).toBe(1);
    await h.advance(10); // the retry (5 s ±10%) succeeds
    expect(rx.to('/backlog')).toHaveLength(2);
    expect(value(await scrape(), 'webhook_deliveries_failing')).toBe(0);
  });

  it('payouts_pending and payouts_oldest_pending_seconds follow a cash-out until it settles', async () => {
    const account = await h.createAccount({ funds: 100 });
    const token = await h.tokenFor(account.id);
    expect(value(await scrape(), 'payouts_pending')).toBe(0);
    expect(value(await scrape(), 'payouts_oldest_pending_seconds')).toBe(0);
    const res = await h.api('POST', '/api/pix/cash-out', token, cashOutBody({ value: 10 }));
    expect(res.statusCode, res.body).toBe(201);
    let text = await scrape();
    expect(value(text, 'payouts_pending')).toBe(1);
    expect(value(text, 'payouts_oldest_pending_seconds')).toBe(0);
    h.clock.advance(0.5); // the frozen clock moves; no job runs yet (settlement takes 1 s in the sandbox)
    text = await scrape();
    expect(value(text, 'payouts_pending')).toBe(1);
    expect(value(text, 'payouts_oldest_pending_seconds')).toBe(0.5);
    await h.advance(5);
    text = await scrape();
    expect(value(text, 'payouts_pending')).toBe(0);
    expect(value(text, 'payouts_oldest_pending_seconds')).toBe(0);
  });

  it('a backlog read that fails makes those gauges NaN (unknown, never 0) and counts it; the rest still answers', async () => {
    const { registerBacklogMetrics } = await import('../../src/observability/backlog.ts');
    const { Registry } = await import('prom-client');
    const registry = new Registry();
    const broken = { transaction: () => ({ execute: () => Promise.reject(new Error('database away')) }) };
    registerBacklogMetrics(registry, { db: broken as never, clock: h.c.clock, logger: h.c.logger });
    const text = await registry.metrics();
    for (const series of ['payouts_pending', 'payouts_oldest_pending_seconds', 'webhook_deliveries_failing', 'jobs_waiting{kind="unknown"}']) {
      expect(value(text, series), series).toBeNaN();
    }
    // Counted as the read fails, so the next scrape shows it.
    expect(value(await registry.metrics(), 'metrics_backlog_errors_total')).toBe(1);
    expect(text).toMatch(/^build_info\{version="[^"]+"\} 1$/m);
  });
});
