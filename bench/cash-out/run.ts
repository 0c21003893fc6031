/**
 * Cash-out and balance benchmark (`npm run bench:cash-out`): the service against the bare references
 * (bench/reference/cash-out-server.ts), interleaved: for each load, every side in turn, round after
 * round, each trial on a fresh instance, the same load generator (keep-alive clients in a worker
 * thread). Sides (bench/cash-out/trials.ts): on PostgreSQL the service as users start it in its own
 * process with WORKERS unset (`service`) and with WORKERS = the cores (`workers=N`; any N with BENCH_SIDES), the recording reference
 * (`reference`, the ratios' base) and the bare UPDATE (`bare-update`, the lower bound); on PGlite the
 * service in this process and the two references. Prints every trial (2xx/s, p50/p99 of 2xx,
 * statements per 2xx, every status, load average before -> after, CPU per 2xx), then medians per
 * side and the ratios against the issue's targets. Exits 1 when an invariant breaks.
 *
 * Loads (BENCH_LOADS, comma-separated; default all):
 *   accounts  cash-outs across BENCH_ACCOUNTS (64) accounts, BENCH_CLIENTS (64) clients   target >= 1.0x
 *   hot       cash-outs on one account, BENCH_CLIENTS clients                           target >= 1.5x (PGlite 1.0x)
 *   p99       cash-outs across the accounts, BENCH_P99_CLIENTS (16) clients             target p99 <= 2x
 *   balance   GET /api/balance across the accounts, BENCH_BALANCE_CLIENTS (16) clients   target >= 0.5x
 * Env: BENCH_DB (pglite | postgres | both), BENCH_PG_URL (a server to use instead of the private
 * cluster), BENCH_SIDES (comma-separated subset of the sides), BENCH_ROUNDS (3), BENCH_SECONDS (10),
 * BENCH_WARMUP_SECONDS (2), BENCH_SETTLEMENT_DELAY_MS (200: settlements and events run alongside),
 * BENCH_CHECKOUTS (other checkouts as sides of their own, for before/after: trials.ts).
 * The pooler's cost: BENCH_DB=postgres BENCH_SIDES=service,pgbouncer (PgBouncer in transaction mode
 * in front of the same server; the `pgbouncer` side of trials.ts).
 */
import { engines, num, type Engine } from '../lib/env.ts';
import { interleave, medianOf, type InterleavedLoad, type Summary, type Target } from '../lib/interleave.ts';
import { benchPostgres } from '../lib/postgres.ts';
import { fmt, formatLoad, loadAverage, ratio } from '../lib/stats.ts';
import { installStatementTap } from '../lib/statement-tap.ts';
import { SIDES, stopPooler, trial, type LoadSpec } from './trials.ts';

installStatementTap();

const ROUNDS = Math.max(1, num('BENCH_ROUNDS', 3));
const ACCOUNTS = num('BENCH_ACCOUNTS', 64);
const timing = { seconds: num('BENCH_SECONDS', 10), warmupSeconds: num('BENCH_WARMUP_SECONDS', 2) };
const settlementDelayMs = num('BENCH_SETTLEMENT_DELAY_MS', 200);
const clients = { many: num('BENCH_CLIENTS', 64), p99: num('BENCH_P99_CLIENTS', 16), balance: num('BENCH_BALANCE_CLIENTS', 16) };
const wanted = (process.env.BENCH_LOADS ?? 'accounts,hot,p99,balance').split(',').map((s) => s.trim());
const wantedSides = process.env.BENCH_SIDES?.split(',').map((s) => s.trim());

function sidesOf(engine: Engine) {
  const sides = wantedSides ? wantedSides.filter((side) => engine === 'postgres' || !side.startsWith('workers=')) : [...SIDES[engine]];
  if (!sides.includes('reference')) sides.push('reference'); // the ratios' base
  return sides;
}

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
const chosen = engines({ ownCluster: true });
console.log(`cash-out benchmark: service vs bare references, interleaved, ${ROUNDS} rounds; load average ${formatLoad(loadAverage())} (1/5/15 min) at start`);
if (chosen.includes('postgres')) console.log(`PostgreSQL: ${(await benchPostgres()).describe}`);
for (const engine of chosen) {
  const sides = sidesOf(engine);
  const services = sides.filter((s) => s !== 'reference' && s !== 'bare-update');
  for (const { name, spec, target } of loads(engine)) {
    const load: InterleavedLoad = { title: title(engine, spec), ...(target ? { target } : {}), trial: trial(engine, spec) };
    summaries.push({ engine, name, ...(target ? { target } : {}), summary: await interleave(load, ROUNDS, sides, 'reference', services) });
  }
}

console.log(`\nrecap (medians; ratios to the recording reference); load average ${formatLoad(loadAverage())} at the end`);
for (const { engine, name, target, summary } of summaries) {
  const aim = target ? `  target ${target.figure === 'p99' ? 'p99' : 'throughput'} ${target.op} ${target.ratio}x` : '';
  console.log(`  ${engine} ${name}${aim}`);
  for (const side of summary.sides) {
    if (side === 'reference') continue;
    const m = (f: (t: (typeof summary.trials)[string][number]) => number | undefined) => medianOf(summary, side, f);
    const r = (f: (t: (typeof summary.trials)[string][number]) => number | undefined) => medianOf(summary, 'reference', f);
    const throughput = ratio(m((t) => t.okPerSecond), r((t) => t.okPerSecond));
    const p99 = ratio(m((t) => t.p99), r((t) => t.p99));
    console.log(`    ${side.padEnd(12)} throughput ${fmt(throughput)}x  p99 ${fmt(p99)}x  statements/2xx ${fmt(m((t) => t.statementsPerOk))} (reference ${fmt(r((t) => t.statementsPerOk))})`);
  }
}
await stopPooler();
const broken = summaries.flatMap((s) => s.summary.broken);
if (broken.length > 0) {
  console.log(`\nINVARIANTS BROKEN (${broken.length}):\n  ${broken.join('\n  ')}`);
  process.exit(1);
}
console.log('\ninvariants: OK after every trial');
process.exit(0);
