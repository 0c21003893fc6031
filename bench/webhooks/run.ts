/**
 * Webhook delivery benchmark (`npm run bench:webhooks`): a local receiver (receiver.ts; three URLs
 * per event, one always answering 500 so retries run alongside), events emitted through the real
 * outbox in committed transactions, delivered by the real relay. Every rate printed is counted at
 * the receiver: deliveries it answered 2xx, per second.
 *
 *  1. drain: BENCH_EVENTS events committed first, then the service's background work started (the
 *     relay and its wake-ups, as in production): 2xx deliveries received
 *     per second, from the relay's start to the last one's arrival.
 *  2. steady: events committed at an offered rate while the relay runs: the events committed per
 *     second actually reached, the 2xx deliveries received per second, and commit-to-delivery
 *     p50/p99/max (the emitting transaction's commit to the receiver getting the request).
 * The 500s answered on the failing URL are printed beside, never counted as deliveries. The load
 * average is printed before and after each phase.
 *
 * Runs on embedded PGlite, and on PostgreSQL too when TEST_DATABASE_URL or DATABASE_URL is set
 * (private schema, dropped afterwards). Env: BENCH_DB, BENCH_EVENTS (3000), BENCH_RATE offered
 * events/s on PostgreSQL (700), BENCH_RATE_PGLITE (100), BENCH_SECONDS (8).
 */
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { openDatabase } from '../../src/db/database.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { cpf } from '../../test/factories.ts';
import { engines, num, PG_URL, type Engine } from '../lib/env.ts';
import { dropSchema, privateSchema } from '../lib/schemas.ts';
import { fmt, formatLoad, loadAverage, percentile, sleep } from '../lib/stats.ts';
import { nowMs, startReceiver } from './receiver.ts';

const EVENTS = num('BENCH_EVENTS', 3000);
const RATE = num('BENCH_RATE', 700);
// Embedded PGlite runs queries on the main thread, one at a time: a lower offered rate.
const RATE_PGLITE = num('BENCH_RATE_PGLITE', 100);
const SECONDS = num('BENCH_SECONDS', 8);
const OK_URLS = ['/ok/1', '/ok/2'];

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

async function bench(engine: Engine) {
  const rate = engine === 'postgres' ? RATE : RATE_PGLITE;
  const schema = engine === 'postgres' ? privateSchema('bench_wh') : undefined;
  const database =
    engine === 'postgres'
      ? await openDatabase({ databaseUrl: PG_URL, dataDir: 'memory://', schema: schema!, poolSize: 20 })
      : await openDatabase({ dataDir: 'memory://' });
  const config = loadConfig({ MODE: 'sandbox', ADMIN_TOKEN: 'bench-admin-token-0123456789', DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
  const c = await createContainer(config, { clock: systemClock, database, logger: pino({ level: 'silent' }) });
  const rx = await startReceiver();
  /** The last first-arrival among these events' 2xx deliveries, and how many arrived. */
  const received = (eventIds: Iterable<string>) => {
    let n = 0;
    let last = -Infinity;
    for (const id of eventIds) {
      for (const url of OK_URLS) {
        const at = rx.arrivals.get(`${id} ${url}`);
        if (at !== undefined) {
          n += 1;
          last = Math.max(last, at);
        }
      }
    }
    return { n, last };
  };
  try {
    const account = await c.accounts.create({ name: 'Bench', document: cpf(4242) });
    for (const path of [...OK_URLS, '/fail']) await c.webhooks.register(account.id, { eventType: 'cash_in', url: `${rx.base}${path}` });
    const lanes = engine === 'postgres' ? 8 : 1;

    // 1. Drain a backlog.
    const drainIds: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < EVENTS) drainIds.push((await emitOne(c, account.id, next++)).eventId);
      }),
    );
    const drainLoad = loadAverage();
    const before = rx.counts();
    const started = nowMs();
    // Everything the service runs in the background, as in production: the relay and its wake-ups.
    c.start();
    const expected = EVENTS * OK_URLS.length;
    while (received(drainIds).n < expected && nowMs() - started < 120_000) await sleep(20);
    const drain = received(drainIds);
    const drainSeconds = (drain.last - started) / 1000;
    await sleep(40); // the receiver's counts arrive every 20 ms
    const drainCounts = rx.counts();
    const drainLoadAfter = loadAverage();
    // The failing URL's first retries fall due 5 s after their first attempts: let that wave pass
    // before measuring latency (the next retries come minutes later, after the benchmark).
    const retryWave = nowMs();
    while (rx.counts().failed - before.failed < EVENTS * 2 && nowMs() - retryWave < 120_000) await sleep(20);
    await sleep(300);

    // 2. Steady offered rate: commit-to-delivery latency, and what was received.
    const commits = new Map<string, number>();
    const total = Math.round(rate * SECONDS);
    const steadyLoad = loadAverage();
    const steadyBefore = rx.counts();
    const t0 = nowMs();
    let sent = 0;
    let lastCommit = t0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (sent < total) {
          const wait = t0 + (sent / rate) * 1000 - nowMs();
          if (wait > 0) await sleep(wait);
          const i = sent++;
          const { eventId, committedAt } = await emitOne(c, account.id, EVENTS + i);
          commits.set(eventId, committedAt);
          lastCommit = Math.max(lastCommit, committedAt);
        }
      }),
    );
    const deadline = nowMs() + 30_000;
    while (received(commits.keys()).n < commits.size * OK_URLS.length && nowMs() < deadline) await sleep(50);
    const steady = received(commits.keys());
    await sleep(40);
    const steadyCounts = rx.counts();
    const latencies: number[] = [];
    for (const [id, committedAt] of commits) {
      for (const url of OK_URLS) {
        const at = rx.arrivals.get(`${id} ${url}`);
        if (at !== undefined) latencies.push(at - committedAt);
      }
    }
    latencies.sort((a, b) => a - b);
    const steadySeconds = (steady.last - t0) / 1000;
    return {
      engine,
      drain: {
        received2xx: drain.n,
        of: expected,
        seconds: drainSeconds,
        perSecond: drain.n / drainSeconds,
        answered500: drainCounts.failed - before.failed,
        load: `${formatLoad(drainLoad)} -> ${formatLoad(drainLoadAfter)}`,
      },
      steady: {
        offeredEventsPerSecond: rate,
        committedEventsPerSecond: commits.size / ((lastCommit - t0) / 1000),
        received2xx: steady.n,
        of: commits.size * OK_URLS.length,
        perSecond: steady.n / steadySeconds,
        answered500: steadyCounts.failed - steadyBefore.failed,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies.at(-1) ?? NaN,
        load: `${formatLoad(steadyLoad)} -> ${formatLoad(loadAverage())}`,
      },
    };
  } finally {
    await rx.close();
    await c.close();
    if (schema) await dropSchema(schema);
  }
}

console.log(`webhook delivery benchmark: ${EVENTS} events drained, then an offered ${RATE} events/s (PGlite ${RATE_PGLITE}) for ${SECONDS} s; 3 URLs per event, 1 always answering 500`);
for (const engine of engines()) {
  const r = await bench(engine);
  const d = r.drain;
  const s = r.steady;
  console.log(`\n[${engine}]`);
  console.log(
    `  drain:  ${fmt(d.perSecond)} deliveries/s received (2xx): ${d.received2xx} of ${d.of} in ${fmt(d.seconds)} s; ` +
      `besides, ${d.answered500} attempts answered 500 on the failing URL; load average ${d.load}`,
  );
  console.log(
    `  steady: ${fmt(s.perSecond)} deliveries/s received (2xx): ${s.received2xx} of ${s.of}; events committed ${fmt(s.committedEventsPerSecond)}/s ` +
      `(offered ${s.offeredEventsPerSecond}/s); commit -> delivery p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms, max ${fmt(s.max)} ms; ` +
      `${s.answered500} answered 500; load average ${s.load}`,
  );
  if (d.received2xx < d.of || s.received2xx < s.of) console.log(`  MISSING deliveries: drain ${d.of - d.received2xx}, steady ${s.of - s.received2xx} (not received within the wait)`);
}
process.exit(0);
