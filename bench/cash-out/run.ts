/**
 * Cash-out and balance benchmark (`npm run bench:cash-out`), the service against its bare reference
 * (bench/reference/cash-out-server.ts), interleaved: for each load, service, reference, service,
 * reference ... for BENCH_ROUNDS rounds, each trial on a fresh instance, the same load generator
 * (keep-alive clients in a worker thread). Prints every trial (2xx/s, p50/p99 of 2xx, statements per
 * 2xx, every status, load average before -> after), then medians per side and the service/reference
 * ratios against the targets. Exits 1 when an invariant breaks after a service trial
 * (ledger check, every 201 stored, each externalId once) or a reference trial (one cent per 201).
 *
 * Loads (BENCH_LOADS, comma-separated; default all):
 *   accounts  cash-outs across BENCH_ACCOUNTS (64) accounts, BENCH_CLIENTS (64) clients   target >= 1.0x
 *   hot       cash-outs on one account, BENCH_CLIENTS clients                           target >= 1.5x (PGlite 1.0x)
 *   p99       cash-outs across the accounts, BENCH_P99_CLIENTS (16) clients             target p99 <= 2x
 *   balance   GET /api/balance across the accounts, BENCH_BALANCE_CLIENTS (16) clients   target >= 0.5x
 * Env: BENCH_DB (pglite | postgres | both), BENCH_ROUNDS (3), BENCH_SECONDS (10), BENCH_WARMUP_SECONDS
 * (2), BENCH_SETTLEMENT_DELAY_MS (200: settlements and events run alongside the load).
 */
import { engines, num, type Engine } from '../lib/env.ts';
import { interleave, type InterleavedLoad, type Summary, type Target } from '../lib/interleave.ts';
import { fmt, formatLoad, loadAverage, median, ratio } from '../lib/stats.ts';
import { installStatementTap } from '../lib/statement-tap.ts';
import { trial, type LoadSpec } from './trials.ts';

installStatementTap();

const ROUNDS = Math.max(1, num('BENCH_ROUNDS', 3));
const ACCOUNTS = num('BENCH_ACCOUNTS', 64);
const timing = { seconds: num('BENCH_SECONDS', 10), warmupSeconds: num('BENCH_WARMUP_SECONDS', 2) };
const settlementDelayMs = num('BENCH_SETTLEMENT_DELAY_MS', 200);
const clients = { many: num('BENCH_CLIENTS', 64), p99: num('BENCH_P99_CLIENTS', 16), balance: num('BENCH_BALANCE_CLIENTS', 16) };
const wanted = (process.env.BENCH_LOADS ?? 'accounts,hot,p99,balance').split(',').map((s) => s.trim());

function loads(engine: Engine): Array<{ name: string; spec: LoadSpec; target?: Target }> {
  const pg = engine === 'postgres';
  const all = [
    { name: 'accounts', spec: { kind: 'cash-out', label: 'accounts', accounts: ACCOUNTS, load: { ...timing, clients: clients.many }, settlementDelayMs }, target: { figure: 'okPerSecond', op: '>=', ratio: 1.0 } },
    { name: 'hot', spec: { kind: 'cash-out', label: 'hot', accounts: 1, load: { ...timing, clients: clients.many }, settlementDelayMs }, target: { figure: 'okPerSecond', op: '>=', ratio: pg ? 1.5 : 1.0 } },
    { name: 'p99', spec: { kind: 'cash-out', label: 'p99', accounts: ACCOUNTS, load: { ...timing, clients: clients.p99 }, settlementDelayMs }, ...(pg ? { target: { figure: 'p99', op: '<=', ratio: 2 } } : {}) },
    { name: 'balance', spec: { kind: 'balance', label: 'balance', accounts: ACCOUNTS, load: { ...timing, clients: clients.balance }, settlementDelayMs }, ...(pg ? { target: { figure: 'okPerSecond', op: '>=', ratio: 0.5 } } : {}) },
  ] as Array<{ name: string; spec: LoadSpec; target?: Target }>;
  const unknown = wanted.filter((w) => !all.some((l) => l.name === w));
  if (unknown.length > 0) throw new Error(`BENCH_LOADS: unknown ${unknown.join(', ')} (accounts, hot, p99, balance)`);
  return all.filter((l) => wanted.includes(l.name));
}

function title(engine: Engine, spec: LoadSpec): string {
  const what = spec.kind === 'cash-out' ? 'cash-outs (R$ 0.01, settlement + event included)' : 'GET /api/balance';
  const where = spec.accounts === 1 ? 'one hot account' : `${spec.accounts} accounts`;
  return `[${engine}] ${what}, ${where}, ${spec.load.clients} clients, ${spec.load.seconds}s (+${spec.load.warmupSeconds}s warm-up) per trial`;
}

const summaries: Array<{ engine: Engine; name: string; target?: Target; summary: Summary }> = [];
console.log(`cash-out benchmark: service vs bare reference, interleaved, ${ROUNDS} rounds; load average ${formatLoad(loadAverage())} (1/5/15 min) at start`);
for (const engine of engines()) {
  for (const { name, spec, target } of loads(engine)) {
    const load: InterleavedLoad = { title: title(engine, spec), ...(target ? { target } : {}), trial: trial(engine, spec) };
    summaries.push({ engine, name, ...(target ? { target } : {}), summary: await interleave(load, ROUNDS) });
  }
}

console.log(`\nrecap (medians, service / reference); load average ${formatLoad(loadAverage())} at the end`);
for (const { engine, name, target, summary } of summaries) {
  const m = (side: 'service' | 'reference', f: (t: (typeof summary.service)[number]) => number | undefined) => median(summary[side].map((t) => f(t) ?? NaN));
  const throughput = ratio(m('service', (t) => t.okPerSecond), m('reference', (t) => t.okPerSecond));
  const p99 = ratio(m('service', (t) => t.p99), m('reference', (t) => t.p99));
  const stmts = m('service', (t) => t.statementsPerOk);
  const aim = target ? `  target ${target.figure === 'p99' ? 'p99' : 'throughput'} ${target.op} ${target.ratio}x` : '';
  console.log(`  ${engine.padEnd(8)} ${name.padEnd(8)} throughput ${fmt(throughput)}x  p99 ${fmt(p99)}x  service statements/2xx ${fmt(stmts)}${aim}`);
}
const broken = summaries.flatMap((s) => s.summary.broken);
if (broken.length > 0) {
  console.log(`\nINVARIANTS BROKEN (${broken.length}):\n  ${broken.join('\n  ')}`);
  process.exit(1);
}
console.log('\ninvariants: OK after every trial');
process.exit(0);
