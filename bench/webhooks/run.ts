/**
 * Webhook delivery benchmark (`npm run bench:webhooks`): a local receiver (one URL of three always
 * failing), events emitted through the real outbox, delivered by the real relay.
 *
 *  1. drain: N events (3 URLs each) committed first, then the relay started: deliveries per second.
 *  2. steady: events committed at a fixed rate while the relay runs: commit-to-delivery p50/p99
 *     (time from the emitting transaction's commit to the receiver getting the request).
 *
 * Runs on embedded PGlite, and on PostgreSQL too when TEST_DATABASE_URL or DATABASE_URL is set
 * (in a private schema, dropped afterwards). Env: BENCH_EVENTS (default 3000), BENCH_RATE events/s
 * on PostgreSQL (default 700, i.e. 2,100 deliveries/s), BENCH_RATE_PGLITE (default 100),
 * BENCH_SECONDS (default 8).
 */
import { Worker } from 'node:worker_threads';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { openDatabase } from '../../src/db/database.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { cpf } from '../../test/factories.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3000);
const RATE = Number(process.env.BENCH_RATE ?? 700);
// Embedded PGlite runs queries on the main thread, one at a time: a lower sustainable rate.
const RATE_PGLITE = Number(process.env.BENCH_RATE_PGLITE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PG_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;

// The receiver runs in its own thread, as a real receiver would be another process: its HTTP work
// does not share the relay's event loop. It reports first arrivals in absolute milliseconds.
const RECEIVER_SOURCE = `
const { createServer } = require('node:http');
const { parentPort } = require('node:worker_threads');
let requests = 0;
const seen = new Set();
let batch = [];
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    requests += 1;
    if (req.url.startsWith('/fail')) { res.writeHead(500).end('failing on purpose'); return; }
    const key = req.headers['webhook-id'] + ' ' + req.url;
    if (!seen.has(key)) { seen.add(key); batch.push([key, performance.timeOrigin + performance.now()]); }
    res.writeHead(200).end('ok');
  });
});
server.keepAliveTimeout = 10000;
setInterval(() => { parentPort.postMessage({ requests, arrivals: batch }); batch = []; }, 20).unref();
parentPort.on('message', (m) => { if (m === 'close') { server.closeAllConnections(); server.close(() => process.exit(0)); } });
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

async function startReceiver() {
  const arrivals = new Map<string, number>();
  let requests = 0;
  const worker = new Worker(RECEIVER_SOURCE, { eval: true });
  const port = await new Promise<number>((resolve) => {
    worker.on('message', (m: { port?: number; requests?: number; arrivals?: Array<[string, number]> }) => {
      if (m.port) resolve(m.port);
      if (m.requests !== undefined) requests = m.requests;
      for (const [key, at] of m.arrivals ?? []) arrivals.set(key, at);
    });
  });
  return {
    base: `http://127.0.0.1:${port}`,
    arrivals,
    get requests() {
      return requests;
    },
    close: () => new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage('close');
    }),
  };
}

/** Absolute milliseconds, comparable across threads. */
const nowMs = () => performance.timeOrigin + performance.now();

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function payload(i: number) {
  return {
    event: 'CashIn',
    status: 'CONFIRMED',
    transactionType: 'PIX',
    movementType: 'CREDIT',
    transactionId: `bench-${i}`,
    externalId: null,
    endToEndId: `E00000000202611220000${String(i).padStart(11, '0')}`,
    pixKey: 'bench@example.com',
    feeAmount: 0,
    originalAmount: 10.5,
    finalAmount: 10.5,
    processingDate: '2026-11-22T00:00:00.000Z',
    errorCode: null,
    errorMessage: null,
    counterpart: { name: 'Pagador', document: '***.456.789-**', bank: { bankISPB: '00000000', bankName: 'Banco', bankCode: '001', accountBranch: null, accountNumber: null } },
    metadata: {},
  };
}

async function emitOne(c: Container, accountId: number, i: number): Promise<{ eventId: string; committedAt: number }> {
  const { eventId } = await c.db.transaction().execute((trx) => c.outbox.emit(trx, { accountId, type: 'cash_in', transactionId: null, payload: payload(i) }));
  return { eventId, committedAt: nowMs() };
}

async function bench(engine: 'pglite' | 'postgres') {
  const rate = engine === 'postgres' ? RATE : RATE_PGLITE;
  const schema = engine === 'postgres' ? `bench_wh_${randomBytes(4).toString('hex')}` : undefined;
  const database =
    engine === 'postgres'
      ? await openDatabase({ databaseUrl: PG_URL, dataDir: 'memory://', schema, poolSize: 20 })
      : await openDatabase({ dataDir: 'memory://' });
  const config = loadConfig({ MODE: 'sandbox', ADMIN_TOKEN: 'bench-admin-token-0123456789', DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
  const c = await createContainer(config, { clock: systemClock, database, logger: pino({ level: 'silent' }) });
  const rx = await startReceiver();
  try {
    const account = await c.accounts.create({ name: 'Bench', document: cpf(4242) });
    for (const path of ['/ok/1', '/ok/2', '/fail']) {
      await c.webhooks.register(account.id, { eventType: 'cash_in', url: `${rx.base}${path}` });
    }
    const lanes = engine === 'postgres' ? 8 : 1;

    // 1. Drain a backlog.
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < EVENTS) await emitOne(c, account.id, next++);
      }),
    );
    const before = rx.requests;
    const started = performance.now();
    c.webhookRelay.start();
    const expected = before + EVENTS * 3;
    while (rx.requests < expected && performance.now() - started < 120_000) await new Promise((r) => setTimeout(r, 5));
    const drainSeconds = (performance.now() - started) / 1000;
    const drained = rx.requests - before;
    // The failing URL's first retries fall due 5 s after their first attempts: let that wave pass
    // before measuring latency (the next retries come 5 min later, after the benchmark).
    const retryWave = performance.now();
    while (rx.requests < expected + EVENTS && performance.now() - retryWave < 120_000) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));

    // 2. Steady rate: commit-to-delivery latency.
    const commits = new Map<string, number>();
    const total = rate * SECONDS;
    const t0 = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (sent < total) {
          const due = t0 + (sent / rate) * 1000;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const i = sent++;
          const { eventId, committedAt } = await emitOne(c, account.id, EVENTS + i);
          commits.set(eventId, committedAt);
        }
      }),
    );
    const deadline = performance.now() + 30_000;
    const wanted = () => [...commits.keys()].filter((id) => rx.arrivals.has(`${id} /ok/1`) && rx.arrivals.has(`${id} /ok/2`)).length;
    while (wanted() < commits.size && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const latencies: number[] = [];
    for (const [id, committedAt] of commits) {
      for (const path of ['/ok/1', '/ok/2']) {
        const at = rx.arrivals.get(`${id} ${path}`);
        if (at !== undefined) latencies.push(at - committedAt);
      }
    }
    latencies.sort((a, b) => a - b);
    await c.webhookRelay.stop();
    const logs = await c.db.selectFrom('webhook_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return {
      engine,
      drain: { deliveries: drained, seconds: +drainSeconds.toFixed(2), perSecond: Math.round(drained / drainSeconds) },
      steady: {
        eventsPerSecond: rate,
        deliveriesPerSecond: rate * 3,
        measured: latencies.length,
        missing: commits.size * 2 - latencies.length,
        p50ms: +percentile(latencies, 50).toFixed(1),
        p99ms: +percentile(latencies, 99).toFixed(1),
        maxMs: +(latencies.at(-1) ?? NaN).toFixed(1),
      },
      attemptsLogged: Number(logs.n),
    };
  } finally {
    await rx.close();
    await c.close();
    if (schema) {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  }
}

const engines: Array<'pglite' | 'postgres'> = ['pglite', ...(PG_URL ? (['postgres'] as const) : [])];
console.log(
  `webhook delivery benchmark: ${EVENTS} events drained, then ${RATE} events/s (PGlite ${RATE_PGLITE}) for ${SECONDS} s; 3 URLs per event, 1 always failing`,
);
for (const engine of engines) {
  const result = await bench(engine);
  console.log(JSON.stringify(result, null, 2));
}
