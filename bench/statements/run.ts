/**
 * Statements and round trips (`npm run bench:statements`), service and bare reference side by side:
 *
 * 1. Per cash-out and per balance read, one client sending one request at a time (each side on a
 *    fresh instance, BENCH_PROBE_REQUESTS requests after BENCH_PROBE_WARMUP untraced ones):
 *    - statements on the request's path: those issued in the request's async context
 *      (AsyncLocalStorage from its arrival), and the round trips among them in a row (the longest
 *      chain of statements each sent after the previous answered; side-by-side ones count once);
 *    - statements in the request's time window from any source (background loops included: an
 *      upper bound where the async context may have missed some), and their chain;
 *    - every statement from the first request until all are settled and their events written,
 *      per request (the cost from request to settled + event, unbatched: one at a time).
 *    And which statements (by kind) a cash-out costs.
 * 2. Idle: statements per second an instance sends with no request at all, over BENCH_IDLE_SECONDS
 *    (20), after the probe's work has settled (target <= 2/s), by kind.
 * Statements are counted below Kysely (bench/lib/statement-tap.ts); BEGIN/COMMIT count.
 * The batched cost under load is printed by `npm run bench:cash-out` (statements per 2xx).
 * Env: BENCH_DB, BENCH_PROBE_REQUESTS (100), BENCH_PROBE_WARMUP (20), BENCH_IDLE_SECONDS (20),
 * BENCH_SETTLEMENT_DELAY_MS (200).
 */
import { engines, num, type Engine } from '../lib/env.ts';
import type { LoadAccount, Plan } from '../lib/requests.ts';
import { startService } from '../lib/service.ts';
import { fmt, formatLoad, formatStatuses, loadAverage, sleep } from '../lib/stats.ts';
import { countByKind, installStatementTap, statementsSoFar, takeKinds } from '../lib/statement-tap.ts';
import { startCashOutReference } from '../reference/cash-out-server.ts';
import { probe, type ProbeResult } from './probe.ts';

installStatementTap();

const REQUESTS = num('BENCH_PROBE_REQUESTS', 100);
const WARMUP = num('BENCH_PROBE_WARMUP', 20);
const IDLE_SECONDS = num('BENCH_IDLE_SECONDS', 20);
const settlementDelayMs = num('BENCH_SETTLEMENT_DELAY_MS', 200);
const FUNDS = 1_000_000;

interface SideResult {
  cashOut: ProbeResult;
  balance: ProbeResult;
  idlePerSecond: number;
  idleKinds: Map<string, number>;
  loadBefore: number[];
  loadAfter: number[];
}

async function idle(): Promise<{ perSecond: number; kinds: Map<string, number> }> {
  await sleep(2000);
  takeKinds();
  const before = statementsSoFar();
  const t0 = performance.now();
  await sleep(IDLE_SECONDS * 1000);
  return { perSecond: (statementsSoFar() - before) / ((performance.now() - t0) / 1000), kinds: takeKinds() };
}

async function measure(origin: string, server: Parameters<typeof probe>[1], accounts: LoadAccount[], settle: () => Promise<unknown>): Promise<SideResult> {
  const loadBefore = loadAverage();
  const cashOutPlan: Plan = { kind: 'cash-out', label: 'probe', accounts };
  const cashOut = await probe(origin, server, cashOutPlan, REQUESTS, WARMUP, settle);
  const balance = await probe(origin, server, { kind: 'balance', accounts }, REQUESTS, WARMUP, async () => {});
  const quiet = await idle();
  return { cashOut, balance, idlePerSecond: quiet.perSecond, idleKinds: quiet.kinds, loadBefore, loadAfter: loadAverage() };
}

async function serviceSide(engine: Engine): Promise<SideResult> {
  const s = await startService(engine, { settlementDelayMs });
  try {
    const accounts = await s.makeAccounts(1, FUNDS);
    const settle = async () => {
      if (!(await s.waitSettled())) throw new Error('cash-outs not settled within 60 s');
    };
    const result = await measure(s.origin, s.server, accounts, settle);
    const broken = await s.invariants(result.cashOut.created);
    if (broken.length > 0) throw new Error(`invariants broken: ${broken.join('; ')}`);
    return result;
  } finally {
    await s.close();
  }
}

async function referenceSide(engine: Engine, tokenLength: number): Promise<SideResult> {
  const r = await startCashOutReference(engine);
  try {
    const accounts = await r.makeAccounts(1, FUNDS, tokenLength);
    return await measure(r.origin, r.server, accounts, async () => {});
  } finally {
    await r.close();
  }
}

function row(label: string, s: number, r: number) {
  console.log(`  ${label.padEnd(70)} ${fmt(s).padStart(8)} ${fmt(r).padStart(10)}`);
}

function kinds(title: string, counts: Map<string, number>, per: number) {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(`  ${title}: ${fmt(total / per)}`);
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 16)) console.log(`    ${fmt(n / per).padStart(7)}  ${k}`);
}

console.log(`statements and round trips: service vs bare reference, one client, ${REQUESTS} requests per probe; idle ${IDLE_SECONDS}s`);
for (const engine of engines()) {
  countByKind(true);
  const service = await serviceSide(engine);
  // The reference's token length does not change what it sends to its database.
  const reference = await referenceSide(engine, 600);
  countByKind(false);
  console.log(
    `\n[${engine}] load average service ${formatLoad(service.loadBefore)} -> ${formatLoad(service.loadAfter)}, reference ${formatLoad(reference.loadBefore)} -> ${formatLoad(reference.loadAfter)}`,
  );
  console.log(`  ${''.padEnd(70)} ${'service'.padStart(8)} ${'reference'.padStart(10)}`);
  for (const [name, s, r] of [
    ['cash-out', service.cashOut, reference.cashOut],
    ['balance read', service.balance, reference.balance],
  ] as const) {
    row(`${name}: statements on the request's path (median)`, s.onPath, r.onPath);
    row(`${name}: round trips in a row on the request's path (median)`, s.inARow, r.inARow);
    row(`${name}:   the same, largest seen`, s.maxInARow, r.maxInARow);
    row(`${name}: statements in the request's time window, any source (median)`, s.inWindow, r.inWindow);
    row(`${name}:   round trips in a row among them (median)`, s.inARowInWindow, r.inARowInWindow);
    if (name === 'cash-out') row(`${name}: statements per request, request to settled + event`, s.perRequestTotal, r.perRequestTotal);
    else row(`${name}: statements per request, all sources`, s.perRequestTotal, r.perRequestTotal);
    console.log(`  ${name}: statuses service ${formatStatuses(s.statuses)}, reference ${formatStatuses(r.statuses)}`);
  }
  row(`idle: statements per second over ${IDLE_SECONDS}s (target <= 2)`, service.idlePerSecond, reference.idlePerSecond);
  kinds('service statements per cash-out by kind, request to settled + event (one at a time)', service.cashOut.kinds, REQUESTS);
  kinds(`service statements per second at idle by kind`, service.idleKinds, IDLE_SECONDS);
}
process.exit(0);
