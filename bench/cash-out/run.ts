/**
 * Cash-out benchmark (`npm run bench:cash-out`): the service in-process, listening on a port, and N
 * HTTP clients (keep-alive) firing POST /api/pix/cash-out for a fixed time; settlement jobs run in
 * the background as in production. Two loads: across many accounts, and on one hot account.
 * Runs on embedded PGlite, and on PostgreSQL too when TEST_DATABASE_URL or DATABASE_URL is set
 * (private schema, dropped afterwards). Prints req/s, p50/p99 latency and peak RSS, then checks
 * the invariants (the ledger check: balanced journals, postings equal balances, no negative balance;
 * each externalId once, every 201
 * stored) and exits non-zero if one breaks.
 * Env: BENCH_SECONDS (default 10), BENCH_CLIENTS (default 16), BENCH_ACCOUNTS (default 64),
 * BENCH_SETTLEMENT_DELAY_MS (default 200; large: settlements wait until the end, after the loads),
 * BENCH_DB (pglite | postgres | both; default both when a URL is set).
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { KyselyPlugin } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { Pool } from 'undici';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { openDatabase } from '../../src/db/database.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { cnpj, cpf } from '../../test/factories.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 64);
const PG_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const DBS = (process.env.BENCH_DB ?? (PG_URL ? 'both' : 'pglite')) as 'pglite' | 'postgres' | 'both';
/** BENCH_COUNT_QUERIES=1: count the statements each load sends (by kind), printed per cash-out. */
const COUNT_QUERIES = process.env.BENCH_COUNT_QUERIES === '1';
const queryCounts = new Map<string, number>();
const queryCounter: KyselyPlugin = {
  transformQuery(args) {
    const node = args.node as { kind: string; sqlFragments?: readonly string[]; table?: { table?: { identifier?: { name?: string } } }; into?: { table?: { identifier?: { name?: string } } }; from?: { froms?: Array<{ table?: { identifier?: { name?: string } } }> } };
    let key = node.kind;
    if (node.kind === 'RawNode') key = `raw ${(node.sqlFragments?.join('?') ?? '').replace(/\s+/g, ' ').trim().slice(0, 60)}`;
    else if (node.kind === 'InsertQueryNode') key = `insert ${node.into?.table?.identifier?.name}`;
    else if (node.kind === 'SelectQueryNode') key = `select ${node.from?.froms?.[0]?.table?.identifier?.name}`;
    else if (node.kind === 'UpdateQueryNode') key = `update ${node.table?.table?.identifier?.name}`;
    else if (node.kind === 'DeleteQueryNode') key = `delete ${(node as { from?: { froms?: Array<{ table?: { identifier?: { name?: string } } }> } }).from?.froms?.[0]?.table?.identifier?.name}`;
    queryCounts.set(key, (queryCounts.get(key) ?? 0) + 1);
    return args.node;
  },
  async transformResult(args) {
    return args.result;
  },
};
const ADMIN = `bench-admin-${randomBytes(8).toString('hex')}`;

let peakRss = 0;
const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function startService(kind: 'pglite' | 'postgres') {
  const schema = kind === 'postgres' ? `bench_${randomBytes(5).toString('hex')}` : undefined;
  const database =
    kind === 'postgres'
      ? await openDatabase({ databaseUrl: PG_URL!, dataDir: 'memory://', schema, poolSize: 20 })
      : await openDatabase({ dataDir: 'memory://' });
  const config = loadConfig({ MODE: 'sandbox', ADMIN_TOKEN: ADMIN, DATA_DIR: 'memory://', LOG_LEVEL: 'silent', SANDBOX_SETTLEMENT_DELAY_MS: process.env.BENCH_SETTLEMENT_DELAY_MS ?? '200', PORT: '0' });
  const counted = COUNT_QUERIES ? { ...database, db: database.db.withPlugin(queryCounter) } : database;
  const c = await createContainer(config, { clock: systemClock, database: counted, logger: pino({ level: 'silent' }) });
  const app = await buildApp(c);
  await app.listen({ host: '127.0.0.1', port: 0 });
  c.start();
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const http = new Pool(origin, { connections: CLIENTS + 4, pipelining: 1 });
  async function call(method: 'GET' | 'POST' | 'PATCH', path: string, token: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await http.request({
      method,
      path,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
  }
  async function close() {
    await http.close();
    await app.close();
    await c.close();
    if (schema) {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  }
  return { c, call, close, origin };
}

type Service = Awaited<ReturnType<typeof startService>>;

async function makeAccounts(s: Service, n: number, funds: number) {
  const out: Array<{ id: number; token: string }> = [];
  for (let i = 0; i < n; i++) {
    const acc = await s.call('POST', '/admin/accounts', ADMIN, { name: `Bench ${i}`, document: cnpj(1000 + i * 7 + Math.floor(Math.random() * 1e6)) });
    const id = acc.json.id as number;
    await s.call('PATCH', `/admin/accounts/${id}/limits`, ADMIN, { perTransaction: 1_000_000, daily: 999_999_999, nightly: 999_999_999 });
    await s.call('POST', '/sandbox/deposits', ADMIN, { accountId: id, amount: funds });
    const cert = await s.call('POST', `/admin/accounts/${id}/certificates`, ADMIN, {});
    const creds = await s.call('POST', `/admin/accounts/${id}/credentials`, ADMIN, {});
    const tok = await s.call('POST', '/api/auth/token', '', creds.json, { 'x-ssl-client-cert': encodeURIComponent(cert.json.certificatePem) });
    out.push({ id, token: tok.json.access_token });
  }
  return out;
}

async function load(s: Service, label: string, accounts: Array<{ id: number; token: string }>) {
  const before = s.c.payouts.payouts.batchStats() ?? { batches: 0, items: 0, retries: 0, fallbacks: 0 };
  queryCounts.clear();
  // The clients run in a worker thread, as an outside load generator would: the service keeps
  // its event loop to itself.
  const entry = new URL('./load-worker.ts', import.meta.url).href;
  const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`, {
    eval: true,
    workerData: { origin: s.origin, accounts, label, seconds: SECONDS, clients: CLIENTS },
  });
  const result = await new Promise<{ latencies: number[]; statuses: Record<string, number>; created: string[]; firstErrors: string[]; elapsed: number }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    },
  );
  await worker.terminate();
  if (COUNT_QUERIES) {
    const ok = Math.max(1, result.created.length);
    const total = [...queryCounts.values()].reduce((a, b) => a + b, 0);
    console.log(`  ${label}: ${(total / ok).toFixed(2)} statements per cash-out (BEGIN/COMMIT not counted)`);
    for (const [k, n] of [...queryCounts].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(`    ${(n / ok).toFixed(3)}  ${k}`);
  }
  for (const line of result.firstErrors) console.error(`  ${line}`);
  const latencies = result.latencies.sort((a, b) => a - b);
  const after = s.c.payouts.payouts.batchStats() ?? before;
  const batches = after.batches - before.batches;
  return {
    batching: `${batches} batches, ${(batches ? (after.items - before.items) / batches : 0).toFixed(1)} per batch, ${after.retries - before.retries} reruns, ${after.fallbacks - before.fallbacks} one by one`,
    label,
    requests: latencies.length,
    perSecond: Math.round(latencies.length / result.elapsed),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses: result.statuses,
    created: result.created,
  };
}

async function invariants(s: Service, created: string[]): Promise<string[]> {
  const db = s.c.db;
  const broken: string[] = [];
  // The ledger check: balanced journals, postings summing to zero, balances equal to postings, none negative.
  const ledger = await s.c.checkLedger();
  if (!ledger.ok) {
    broken.push(
      `ledger check failed: total ${ledger.postings.total}, ${ledger.unbalancedJournals.count} unbalanced journals, ` +
        `drift on ${ledger.drift.count} accounts ${JSON.stringify(ledger.drift.items.slice(0, 3))}, ${ledger.negativeBalances.count} negative balances`,
    );
  }
  const dup = await db
    .selectFrom('transactions')
    .select(['account_id', 'external_id'])
    .where('external_id', 'is not', null)
    .groupBy(['account_id', 'external_id'])
    .having((e) => e.fn.countAll(), '>', 1)
    .execute();
  if (dup.length > 0) broken.push(`${dup.length} externalIds stored more than once`);
  const stored = await db.selectFrom('transactions').select((e) => e.fn.countAll().as('n')).where('kind', '=', 'WITHDRAW').executeTakeFirstOrThrow();
  if (Number(stored.n) !== created.length) broken.push(`${created.length} cash-outs answered 201 but ${stored.n} are stored`);
  return broken;
}

async function bench(kind: 'pglite' | 'postgres') {
  const s = await startService(kind);
  const results = [];
  let broken: string[] = [];
  try {
    const many = await makeAccounts(s, kind === 'pglite' ? Math.min(ACCOUNTS, 16) : ACCOUNTS, 1_000_000);
    const spread = await load(s, 'accounts', many);
    const [hot] = await makeAccounts(s, 1, 1_000_000);
    const hotRun = await load(s, 'hot', [hot!]);
    results.push(spread, hotRun);
    // Let the settlements due by now run, then check the books.
    await new Promise((r) => setTimeout(r, 500));
    await s.c.scheduler.runDue();
    broken = await invariants(s, [...spread.created, ...hotRun.created]);
    const pending = await s.c.db.selectFrom('transactions').select((e) => e.fn.countAll().as('n')).where('status', '=', 'PENDING').executeTakeFirstOrThrow();
    console.log(`\n${kind} (${CLIENTS} clients, ${SECONDS}s per load; settlement jobs running alongside; ${pending.n} still PENDING at the end)`);
    for (const r of results) {
      console.log(
        `  ${r.label.padEnd(9)} ${String(r.perSecond).padStart(6)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   ${r.requests} requests ${JSON.stringify(r.statuses)}; ${r.batching}`,
      );
    }
    console.log(`  peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB`);
    console.log(broken.length === 0 ? '  invariants: OK' : `  INVARIANTS BROKEN:\n    ${broken.join('\n    ')}`);
  } finally {
    await s.close();
  }
  return broken;
}

const kinds: Array<'pglite' | 'postgres'> = DBS === 'both' ? ['pglite', 'postgres'] : [DBS];
if (kinds.includes('postgres') && !PG_URL) {
  console.error('BENCH_DB=postgres needs TEST_DATABASE_URL or DATABASE_URL');
  process.exit(2);
}
let failures = 0;
for (const kind of kinds) failures += (await bench(kind)).length;
clearInterval(rssTimer);
process.exit(failures > 0 ? 1 : 0);
