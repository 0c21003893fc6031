import http from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('GET /ready', () => {
  it('is 503 with Retry-After while the scheduler is not running, 200 once it runs', async () => {
    const before = await h.app.inject({ method: 'GET', url: '/ready' });
    expect(before.statusCode).toBe(503);
    expect(before.headers['retry-after']).toBe('5');
    expect(before.json()).toEqual({ status: 'not_ready', checks: { database: 'ok', migrations: 'ok', scheduler: 'not running' } });
    h.c.scheduler.start();
    try {
      const after = await h.app.inject({ method: 'GET', url: '/ready' });
      expect(after.statusCode).toBe(200);
      expect(after.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', scheduler: 'ok' } });

      // A migration this code knows but the database lacks (an instance newer than its schema).
      await sql`DELETE FROM schema_migrations WHERE name = '500_refunds_med.sql'`.execute(h.c.db);
      const behind = await h.app.inject({ method: 'GET', url: '/ready' });
      expect(behind.statusCode).toBe(503);
      expect(behind.json().checks.migrations).toBe('pending: 500_refunds_med.sql');
      await sql`INSERT INTO schema_migrations (name) VALUES ('500_refunds_med.sql')`.execute(h.c.db);
      expect((await h.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    } finally {
      await h.c.scheduler.stop();
    }
  });

  it('/health stays liveness only: 200 whether or not the scheduler runs', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});

describe('request ids and the access log', () => {
  const linesOf = (id: string) => h.logLines.map((l) => JSON.parse(l)).filter((l) => l.reqId === id);

  it('keeps a sane incoming X-Request-Id: echoed, the errorId, in every log line of the request, with one access line', async () => {
    h.logLines.length = 0;
    const res = await h.app.inject({ method: 'GET', url: '/api/no-such-route', headers: { 'x-request-id': 'edge-7f3a.42' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).toBe('edge-7f3a.42');
    expect(res.json().errorId).toBe('edge-7f3a.42');
    const lines = linesOf('edge-7f3a.42');
    const access = lines.filter((l) => l.msg === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ method: 'GET', route: 'unmatched', status: 404, ip: '127.0.0.1' });
    expect(typeof access[0].ms).toBe('number');
    expect(h.logLines.length).toBe(lines.length); // no line of this request without its id
  });

  it('makes a new UUID when the header is missing, repeated or not a sane token', async () => {
    for (const header of [undefined, 'has space', 'x'.repeat(129), 'new\u00e9line']) {
      const res = await h.app.inject({ method: 'GET', url: '/health', headers: header === undefined ? {} : { 'x-request-id': header } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('operations logs and metrics', () => {
  it('logs every failed job attempt and every failed webhook attempt', async () => {
    h.logLines.length = 0;
    h.c.scheduler.register('test.always-fails', async () => {
      throw new Error('boom for the log');
    });
    await h.c.scheduler.schedule(h.c.db, 'test.always-fails', h.clock.now(), {});
    await h.runJobs();
    const jobLine = h.logLines.map((l) => JSON.parse(l)).find((l) => String(l.msg).startsWith('job failed'));
    expect(jobLine).toMatchObject({ kind: 'test.always-fails', attempt: 1, err: { message: 'boom for the log' } });

    const receiver = http.createServer((_req, res) => res.writeHead(500).end('down'));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const account = await h.createAccount();
      const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
      expect((await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url })).statusCode).toBe(201);
      await h.deposit(account.id, 10);
      await h.deliverWebhooks();
      const hookLine = h.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'webhook attempt failed');
      expect(hookLine).toMatchObject({ attempt: 1, outcome: 'retry', statusCode: 500, url });
      expect(hookLine.nextAttemptAt).toBeDefined();
    } finally {
      receiver.close();
    }
  });

  it('GET /metrics names requests, jobs, webhook deliveries and the payout batcher', async () => {
    const text = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
    for (const name of ['http_requests_total', 'http_request_duration_seconds', 'jobs_total', 'webhook_attempts_total', 'payout_batcher_count']) {
      expect(text, name).toContain(`# TYPE ${name}`);
    }
    expect(text).toMatch(/jobs_total\{kind="test.always-fails",outcome="retry"\} 1/);
  });
});
