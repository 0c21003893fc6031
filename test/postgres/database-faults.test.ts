import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DB_TIMEOUTS } from '../../src/db/pg-pool.ts';
import { READINESS_CHECK_TIMEOUT_MS } from '../../src/http/routes/system/readiness-checks.ts';
import { findLedgerDrift } from '../../src/ledger/ledger.ts';
import { startHarness, type Harness } from '../harness.ts';
import { cashOutBody, payer } from '../payouts/helpers.ts';
import { pgUrl, schemaOf, sideConnection, waitForWaiters } from './pg-tools.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * Database faults on real PostgreSQL: the service's own connections terminated, a restart (every
 * connection reset by a TCP proxy), a row locked past the lock timeout, a full pool, a partition.
 * Each request the fault hits answers 503 with Retry-After (never 500, never a hang, never a crash)
 * and the service recovers by itself.
 */
const TIMEOUTS = { connectMs: 1_000, acquireMs: 700, statementMs: 2_000, lockMs: 800, idleInTransactionMs: 5_000, queryMs: 2_500, keepAliveInitialDelayMs: 1_000, clientCheckMs: 100 };

let h: Harness | undefined;
let proxy: TcpProxy | undefined;
const opened: Array<{ end(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.end().catch(() => {});
  proxy?.heal();
  await h?.close();
  await proxy?.close();
  h = undefined;
  proxy = undefined;
});

async function start(options: { viaProxy?: boolean; poolSize?: number; timeouts?: Partial<typeof TIMEOUTS>; defaults?: boolean } = {}) {
  const url = new URL(pgUrl());
  const applicationName = `fault_${randomBytes(5).toString('hex')}`;
  if (options.viaProxy) {
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
  }
  h = await startHarness({ postgres: { url: url.toString(), applicationName, timeouts: { ...(options.defaults ? DEFAULT_DB_TIMEOUTS : TIMEOUTS), ...options.timeouts }, poolSize: options.poolSize ?? 5 } });
  const schema = await schemaOf(h);
  const side = async () => {
    const c = await sideConnection(schema);
    opened.push(c);
    return c;
  };
  return { h, applicationName, side };
}

function expect503(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode, res.body).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

/** The answer and how long it took (milliseconds of real time). */
async function timed<T>(call: () => Promise<T>): Promise<{ res: T; ms: number }> {
  const started = performance.now();
  const res = await call();
  return { res, ms: performance.now() - started };
}

/** The cause logged with a 503 (its SQLSTATE or message), found by the answer's request id. */
function loggedCause(h: Harness, res: { headers: Record<string, unknown> }) {
  const line = h.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'service unavailable' && l.errorId === res.headers['x-request-id']);
  return line?.err as { code?: string; message?: string } | undefined;
}

/** Calls until one answers 200 (the service healed itself), or fails after `withinMs`. */
async function recovers(call: () => Promise<{ statusCode: number; body: string }>, withinMs = 8_000) {
  const until = Date.now() + withinMs;
  let last: { statusCode: number; body: string } | undefined;
  while (Date.now() < until) {
    last = await call();
    if (last.statusCode === 200) return;
    expect(last.statusCode, last.body).toBe(503);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`did not recover: last answer ${last?.statusCode} ${last?.body}`);
}

describe('database faults (PostgreSQL)', () => {
  it('pg_terminate_backend on the service connections: the request in flight gets 503, the process survives, the service recovers', async () => {
    const { h, applicationName, side } = await start();
    const a = await payer(h, 100);
    const locker = await side();
    const observer = await side();
    // A cash-out parked inside its transaction on a checked-out connection.
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [a.id]);
    const parked = h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }));
    expect(await waitForWaiters(observer, locker.pid, 1)).toBe(1);
    const { rows } = await observer.query<{ n: number }>(
      'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
      [applicationName],
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect503(await parked);
    await locker.query('ROLLBACK');
    await recovers(() => h.api('GET', '/api/balance', a.token));
    expect(await h.balance(a.id)).toEqual({ available: 100, blocked: 0 });
    expect(h.logLines.join('')).toContain('service unavailable');
  });

  it('a database "restart" (every connection reset by the proxy): 503 with Retry-After, then recovery by itself', async () => {
    const { h, side } = await start({ viaProxy: true });
    const a = await payer(h, 100);
    // Several connections at once, so the pool keeps idle ones for the reset to hit.
    await Promise.all(Array.from({ length: 3 }, () => sql`SELECT pg_sleep(0.05)`.execute(h.c.db)));
    const locker = await side();
    const observer = await side();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [a.id]);
    const parked = h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }));
    expect(await waitForWaiters(observer, locker.pid, 1)).toBe(1);
    proxy!.dropAll();
    expect503(await parked);
    // Both kinds of broken connection are logged with their cause, not dropped silently.
    const logged = async (msg: string) => {
      for (let i = 0; i < 40; i++) {
        const line = h.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === msg);
        if (line) return line;
        await new Promise((r) => setTimeout(r, 50));
      }
      return undefined;
    };
    expect(await logged('database: an idle pooled connection failed and was dropped')).toMatchObject({ level: 40, err: { message: expect.any(String) } });
    expect(await logged('database: a pooled connection failed')).toMatchObject({ level: 40, err: { message: expect.any(String) } });
    // The parked payout's statement outlives its client unless the server notices the client is gone
    // (client_connection_check_interval): past that check it is cancelled, never committed on its own.
    await new Promise((resolve) => setTimeout(resolve, 3 * TIMEOUTS.clientCheckMs));
    await locker.query('ROLLBACK');
    // While the server is "down" (connections made since, e.g. by the batch's fallback, reset too),
    // new connections are refused: 503, not a hang.
    proxy!.refuse();
    proxy!.dropAll();
    expect503(await h.api('GET', '/api/balance', a.token));
    // Liveness does not ask the database: the process is alive, restarting it would not help.
    expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    // Readiness says which check fails (a load balancer takes this instance out), within its bound.
    const notReady = await h.app.inject({ method: 'GET', url: '/ready' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.headers['retry-after']).toBe('5');
    expect(notReady.json().status).toBe('not_ready');
    expect(notReady.json().checks.database).toMatch(/^(failed: |no answer within)/);
    expect(notReady.json().checks.migrations).toBe('unknown: the database does not answer');
    proxy!.heal();
    await recovers(() => h.api('GET', '/api/balance', a.token));
    expect((await h.app.inject({ method: 'GET', url: '/ready' })).json().checks.database).toBe('ok');
    const paid = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }));
    expect(paid.statusCode, paid.body).toBe(201);
    expect(await h.balance(a.id)).toEqual({ available: 90, blocked: 10 });
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('a row locked past the lock timeout: that account answers 503 while the lock lasts; other accounts and /health go on', async () => {
    const { h, side } = await start({ timeouts: { statementMs: 10_000, queryMs: 12_000 } });
    const a = await payer(h, 100);
    const b = await payer(h, 100);
    const locker = await side();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [a.id]);
    try {
      // The answer arrives while the lock is still held: the wait was bounded by the lock timeout
      // (800 ms here), not by the statement timeout (10 s here, far enough that a busy machine's
      // scheduling cannot blur the two) nor by the lock's end.
      const locked = await timed(() => h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 })));
      expect503(locked.res);
      expect(loggedCause(h, locked.res)).toMatchObject({ code: '55P03' });
      expect(locked.ms).toBeLessThan(TIMEOUTS.statementMs);
      const other = await h.api('POST', '/api/pix/cash-out', b.token, cashOutBody({ value: 10 }));
      expect(other.statusCode, other.body).toBe(201);
      expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await locker.query('ROLLBACK');
    }
    const after = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }));
    expect(after.statusCode, after.body).toBe(201);
    expect(await h.balance(a.id)).toEqual({ available: 90, blocked: 10 });
  });

  it('a pool exhausted by stalled requests answers 503 at once (acquire timeout), /ready too, /health stays 200; then recovers', async () => {
    // Lock waits longer than the probes below, so the two stalled requests keep both connections.
    const { h, side } = await start({ poolSize: 2, timeouts: { lockMs: 6_000, statementMs: 7_000, queryMs: 8_000 } });
    const a = await payer(h, 100);
    const b = await payer(h, 100);
    const locker = await side();
    const observer = await side();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM accounts WHERE id IN ($1, $2) FOR UPDATE', [a.id, b.id]);
    try {
      const parked = [
        h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 })),
        h.api('POST', '/dict/pix', b.token, { pixKey: 'destino@example.com', payment: { currency: 'BRL', amount: 10 } }, { 'x-idempotency-key': crypto.randomUUID() }),
      ];
      expect(await waitForWaiters(observer, locker.pid, 2)).toBe(2);
      // The cash-out's batch waits on the held row at most 250 ms, then the payout waits alone, on a
      // connection of its own: past that, both connections are held by the two parked payouts.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await waitForWaiters(observer, locker.pid, 2)).toBe(2);
      const health = await timed(() => h.app.inject({ method: 'GET', url: '/health' }));
      expect(health.res.statusCode).toBe(200);
      // Liveness needs no connection (with one it would have answered 503 after 700 ms): it does not
      // wait for the 6 s lock either.
      expect(health.ms).toBeLessThan(6_000);
      const ready = await h.app.inject({ method: 'GET', url: '/ready' });
      expect503(ready);
      expect(ready.json().checks.database).toMatch(/no database connection free within 700 ms/);
      // Waiting for a connection is bounded by the acquire timeout (700 ms), far below the lock's 6 s.
      const balance = await timed(() => h.api('GET', '/api/balance', a.token));
      expect503(balance.res);
      expect(balance.ms).toBeLessThan(6_000);
      expect(loggedCause(h, balance.res)?.message).toMatch(/no database connection free within 700 ms/);
      await locker.query('ROLLBACK');
      // The stalled requests were only waiting: they complete once the lock is gone.
      for (const r of await Promise.all(parked)) expect(r.statusCode, r.body).toBe(201);
    } finally {
      await locker.query('ROLLBACK');
    }
    expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('a partition (the proxy forwards nothing, closes nothing): 503 within the bounds, /ready 503, /health 200, recovery once it heals', async () => {
    const { h } = await start({ viaProxy: true });
    const a = await payer(h, 100);
    proxy!.partition();
    const [cashOut, balance, health, ready] = await Promise.all([
      h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 })),
      h.api('GET', '/api/balance', a.token),
      h.app.inject({ method: 'GET', url: '/health' }),
      h.app.inject({ method: 'GET', url: '/ready' }),
    ]);
    expect503(cashOut);
    expect503(balance);
    expect(health.statusCode).toBe(200);
    expect503(ready);
    proxy!.heal();
    await recovers(() => h.api('GET', '/api/balance', a.token));
    const paid = await h.api('POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 10 }));
    expect(paid.statusCode, paid.body).toBe(201);
    expect(await findLedgerDrift(h.c.db)).toEqual([]);
  });

  it('with the default bounds (2 s to get a connection, 12 s for a query), a partition and then a full pool: /health answers 200 without a query, /ready 503 within its check bound', async () => {
    // The default bounds, but for the lock's, long enough for the full pool below to last.
    const { h, side } = await start({ viaProxy: true, poolSize: 2, defaults: true, timeouts: { lockMs: 8_000, statementMs: 9_000 } });
    // /ready's bound is its check's (2 s), against the 12 s a query would wait for its answer
    // without it: the bound is half-way between the two, so a busy machine's scheduling cannot blur them.
    const readyBoundMs = (READINESS_CHECK_TIMEOUT_MS + DEFAULT_DB_TIMEOUTS.queryMs) / 2;
    // /health runs no query (one would have waited 12 s in the partition, then answered 503).
    const healthBoundMs = DEFAULT_DB_TIMEOUTS.queryMs / 2;
    expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    // A partition: the probe's query would wait 12 s for an answer.
    proxy!.partition();
    const [partitioned, notReady] = await Promise.all([
      timed(() => h.app.inject({ method: 'GET', url: '/health' })),
      timed(() => h.app.inject({ method: 'GET', url: '/ready' })),
    ]);
    expect(partitioned.res.statusCode).toBe(200);
    expect(partitioned.ms).toBeLessThan(healthBoundMs);
    expect503(notReady.res);
    expect(notReady.ms).toBeLessThan(readyBoundMs);
    expect(notReady.res.json().checks.database).toBe(`no answer within ${READINESS_CHECK_TIMEOUT_MS} ms`);
    // Every connection reset: the stalled queries fail at once and the pool starts afresh.
    proxy!.dropAll();
    proxy!.heal();
    await recovers(async () => {
      const res = await h.app.inject({ method: 'GET', url: '/ready' });
      // Only the scheduler is not running in a harness: the database is back when its check is.
      return { statusCode: res.json().checks.database === 'ok' ? 200 : 503, body: res.body };
    });

    // A full pool: both connections wait on a locked row; the probe would wait 2 s for one.
    // Two accounts, so each request waits on the locker itself (a second waiter on one row would wait on the first).
    const payers = [await payer(h, 100), await payer(h, 100)];
    const locker = await side();
    const observer = await side();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM accounts WHERE id IN ($1, $2) FOR UPDATE', payers.map((p) => p.id));
    try {
      const parked = payers.map((p) => h.api('POST', '/dict/pix', p.token, { pixKey: 'destino@example.com', payment: { currency: 'BRL', amount: 1 } }, { 'x-idempotency-key': crypto.randomUUID() }));
      expect(await waitForWaiters(observer, locker.pid, 2)).toBe(2);
      const [full, fullReady] = await Promise.all([
        timed(() => h.app.inject({ method: 'GET', url: '/health' })),
        timed(() => h.app.inject({ method: 'GET', url: '/ready' })),
      ]);
      expect(full.res.statusCode).toBe(200);
      expect(full.ms).toBeLessThan(healthBoundMs);
      expect503(fullReady.res);
      expect(fullReady.ms).toBeLessThan(readyBoundMs);
      await locker.query('ROLLBACK');
      for (const r of await Promise.all(parked)) expect(r.statusCode, r.body).toBe(201);
    } finally {
      await locker.query('ROLLBACK');
    }
    expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});
