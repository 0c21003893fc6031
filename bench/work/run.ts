/**
 * Where the work of a cash-out goes inside PostgreSQL (`npm run bench:work`, issue 23 item 3): per
 * 2xx cash-out, from the load's start until every cash-out is settled and its event written, the
 * rows written per table, index entries per index, WAL bytes and records by relation and kind,
 * statements and their time (pg_stat_statements), and the CPU of PostgreSQL and of the side's
 * processes; the service as users start it beside the recording reference and the bare UPDATE,
 * interleaved, BENCH_ROUNDS (3) rounds, the load average with each trial. Measured on the benchmark's
 * own PostgreSQL cluster (bench/lib/pg-cluster.ts: pg_stat_statements preloaded, durable commits;
 * nothing else on it, so WAL and CPU are the side's alone). See bench/lib/pg-work.ts for how each
 * figure is read.
 *
 * Env: BENCH_WORK_LOAD (p99: 64 accounts, 16 clients | accounts: 64 accounts, 64 clients | hot: one
 * account, 64 clients), BENCH_SIDES (service,reference,bare-update; also workers=N), BENCH_ROUNDS (3),
 * BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_SETTLEMENT_DELAY_MS (200), BENCH_ACCOUNTS (64).
 */
import { processTreeCpuSeconds } from '../lib/cpu.ts';
import { num } from '../lib/env.ts';
import { allOk } from '../lib/interleave.ts';
import { runLoad } from '../lib/load.ts';
import { cpuNow, indexEntries, markWork, workSince, type Work } from '../lib/pg-work.ts';
import { benchPostgres, resetStatements, type BenchPostgres } from '../lib/postgres.ts';
import type { LoadAccount, Plan } from '../lib/requests.ts';
import { startServiceProcess } from '../lib/service-process.ts';
import { fmt, formatLoad, formatStatuses, loadAverage, median, sleep } from '../lib/stats.ts';
import { startReferenceProcess } from '../reference/process.ts';
import { workersOf } from '../cash-out/trials.ts';

const ROUNDS = Math.max(1, num('BENCH_ROUNDS', 3));
const ACCOUNTS = num('BENCH_ACCOUNTS', 64);
const timing = { seconds: num('BENCH_SECONDS', 10), warmupSeconds: num('BENCH_WARMUP_SECONDS', 2) };
const settlementDelayMs = num('BENCH_SETTLEMENT_DELAY_MS', 200);
const LOADS = {
  p99: { accounts: ACCOUNTS, clients: 16 },
  accounts: { accounts: ACCOUNTS, clients: 64 },
  hot: { accounts: 1, clients: 64 },
} as const;
const loadName = (process.env.BENCH_WORK_LOAD ?? 'p99') as keyof typeof LOADS;
if (!(loadName in LOADS)) throw new Error(`BENCH_WORK_LOAD=${loadName}: p99, accounts or hot`);
const LOAD = LOADS[loadName];
const SIDES = (process.env.BENCH_SIDES ?? 'service,reference,bare-update').split(',').map((s) => s.trim());
/** More than PostgreSQL's idle flush interval of table counters (10 s). */
const STATS_FLUSH_WAIT_MS = 11_000;
const FUNDS = 1_000_000;

export interface SideWork {
  side: string;
  oks: number;
  okPerSecond: number;
  statuses: Record<string, number>;
  sideCpuSeconds: number;
  work: Work;
  indexTable: Map<string, string>;
  loadBefore: readonly number[];
  loadAfter: readonly number[];
}

interface Running {
  origin: string;
  database: string;
  pid: number;
  accounts: LoadAccount[];
  settle(): Promise<boolean>;
  check(created: string[]): Promise<string[]>;
  close(keep: boolean): Promise<void>;
}

let tokenLength = 600;

async function start(pgs: BenchPostgres, side: string, cpuProfileDir?: string): Promise<Running> {
  if (side === 'reference' || side === 'bare-update') {
    const r = await startReferenceProcess(pgs, side === 'reference' ? 'record' : 'update');
    const accounts = await r.makeAccounts(LOAD.accounts, FUNDS, tokenLength);
    return { ...r, accounts, settle: async () => true, check: (created) => r.invariants(created.length) };
  }
  const s = await startServiceProcess(pgs, { settlementDelayMs, workers: workersOf(side), ...(cpuProfileDir ? { cpuProfileDir } : {}) });
  const accounts = await s.makeAccounts(LOAD.accounts, FUNDS);
  tokenLength = accounts[0]!.token.length;
  return { ...s, accounts, settle: () => s.waitSettled(), check: (created) => s.invariants(created) };
}

/** One side's trial: its work from the load's start to settled + event, per 2xx. */
export async function measureSide(pgs: BenchPostgres, side: string, cpuProfileDir?: string): Promise<SideWork & { broken: string[]; window: [number, number] }> {
  const run = await start(pgs, side, cpuProfileDir);
  let kept = false;
  try {
    await sleep(STATS_FLUSH_WAIT_MS);
    const mark = await markWork(pgs, run.database);
    await resetStatements(pgs, run.database);
    const cpu0 = processTreeCpuSeconds(run.pid);
    const t0 = process.hrtime.bigint();
    const plan: Plan = { kind: 'cash-out', label: 'work', accounts: run.accounts };
    const m = await runLoad(run.origin, plan, { ...timing, clients: LOAD.clients });
    const settled = await run.settle();
    const t1 = process.hrtime.bigint();
    const sideCpuSeconds = processTreeCpuSeconds(run.pid) - cpu0;
    const cpuEnd = cpuNow(pgs);
    const broken = await run.check(m.created);
    if (!settled) broken.push('not all cash-outs settled within 120 s');
    await run.close(true);
    kept = true;
    const work = await workSince(pgs, run.database, mark, cpuEnd);
    const indexTable = new Map(
      (await pgs.query<{ index: string; table: string }>(`SELECT i.indexrelid::regclass::text AS index, i.indrelid::regclass::text AS table FROM pg_index i`, [], run.database)).map((r) => [r.index, r.table]),
    );
    return {
      side,
      oks: allOk(m),
      okPerSecond: m.okPerSecond,
      statuses: m.statuses,
      sideCpuSeconds,
      work,
      indexTable,
      loadBefore: m.loadBefore,
      loadAfter: m.loadAfter,
      broken,
      // The load's period on the monotonic clock, in microseconds (CPU profiles use the same clock).
      window: [Number(t0 / 1000n), Number(t1 / 1000n)],
    };
  } finally {
    if (kept) await pgs.dropDatabase(run.database);
    else await run.close(false);
  }
}

const sum = (xs: Iterable<number>) => [...xs].reduce((a, b) => a + b, 0);

/** The figures per 2xx of one trial: name -> value. */
export function perCashOut(r: SideWork): Map<string, number> {
  const n = Math.max(1, r.oks);
  const w = r.work;
  const tables = [...w.tables.values()];
  const top = w.statements.filter((s) => s.toplevel);
  const heap = (kind: string) => sum([...(w.walByRelation?.values() ?? [])].map((k) => k.get(kind)?.records ?? 0));
  const f = new Map<string, number>([
    ['statements (top level)', sum(top.map((s) => s.calls)) / n],
    ['statement time, ms (top level)', sum(top.map((s) => s.ms)) / n],
    ['PostgreSQL CPU, ms', w.cpuSeconds !== undefined ? (w.cpuSeconds * 1000) / n : NaN],
    ["the side's own CPU, ms", (r.sideCpuSeconds * 1000) / n],
    ['rows inserted', sum(tables.map((t) => t.ins)) / n],
    ['rows updated', sum(tables.map((t) => t.upd)) / n],
    ['  of which HOT', sum(tables.map((t) => t.hot)) / n],
    ['rows deleted', sum(tables.map((t) => t.del)) / n],
  ]);
  if (w.walByRelation) {
    f.set('row locks logged (Heap/LOCK)', heap('Heap/LOCK') / n);
    f.set('index entries (B-tree leaf inserts)', sum([...w.walByRelation.values()].map(indexEntries)) / n);
    f.set('commits (Transaction/COMMIT)', heap('Transaction/COMMIT') / n);
  }
  if (w.wal) {
    f.set('WAL bytes', w.wal.bytes / n);
    f.set('WAL records', w.wal.records / n);
    f.set('WAL full-page images', w.wal.fpi / n);
  }
  return f;
}

function printComparison(results: Map<string, SideWork[]>) {
  const sides = [...results.keys()];
  const figures = new Map<string, Map<string, number>>();
  for (const side of sides) {
    const per = results.get(side)!.map(perCashOut);
    for (const name of per[0]!.keys()) {
      const row = figures.get(name) ?? new Map<string, number>();
      row.set(side, median(per.map((p) => p.get(name) ?? NaN)));
      figures.set(name, row);
    }
  }
  console.log(`\nper 2xx cash-out, request to settled + event (medians of ${ROUNDS} rounds):`);
  console.log(`  ${''.padEnd(40)}${sides.map((s) => s.padStart(13)).join('')}`);
  for (const [name, row] of figures) console.log(`  ${name.padEnd(40)}${sides.map((s) => fmt(row.get(s) ?? NaN).padStart(13)).join('')}`);
}

/** Where one trial's work went, per 2xx: by table (rows, index entries, WAL) and by statement. */
export function printBreakdown(r: SideWork, topStatements = 15) {
  const n = Math.max(1, r.oks);
  const w = r.work;
  console.log(`\n[${r.side}] where the work goes, per 2xx cash-out (${r.oks} 2xx; load ${formatLoad(r.loadBefore)} -> ${formatLoad(r.loadAfter)})`);
  const tableOf = (relation: string) => r.indexTable.get(relation) ?? relation;
  const byTable = new Map<string, { rows?: (typeof w.tables extends Map<string, infer T> ? T : never); entries: number; walBytes: number; walRecords: number; locks: number; indexes: Map<string, number> }>();
  const entry = (t: string) => {
    const e = byTable.get(t) ?? { entries: 0, walBytes: 0, walRecords: 0, locks: 0, indexes: new Map<string, number>() };
    byTable.set(t, e);
    return e;
  };
  for (const [t, rows] of w.tables) entry(t).rows = rows;
  for (const [relation, kinds] of w.walByRelation ?? []) {
    const e = entry(tableOf(relation));
    e.walBytes += sum([...kinds.values()].map((k) => k.bytes));
    e.walRecords += sum([...kinds.values()].map((k) => k.records));
    e.locks += kinds.get('Heap/LOCK')?.records ?? 0;
    const entries = indexEntries(kinds);
    e.entries += entries;
    if (r.indexTable.has(relation) && entries > 0) e.indexes.set(relation, entries);
  }
  const rows = [...byTable].sort((a, b) => b[1].walBytes - a[1].walBytes);
  console.log(`  ${'table (with its indexes)'.padEnd(34)} ${'ins'.padStart(6)} ${'upd'.padStart(6)} ${'hot'.padStart(6)} ${'del'.padStart(6)} ${'locks'.padStart(6)} ${'idx ent'.padStart(8)} ${'WAL rec'.padStart(8)} ${'WAL B'.padStart(8)}`);
  for (const [t, e] of rows) {
    const x = (v: number | undefined) => fmt((v ?? 0) / n).padStart(6);
    if (!e.rows && e.walBytes / n < 1) continue;
    console.log(
      `  ${t.slice(0, 34).padEnd(34)} ${x(e.rows?.ins)} ${x(e.rows?.upd)} ${x(e.rows?.hot)} ${x(e.rows?.del)} ${x(e.locks)} ${fmt(e.entries / n).padStart(8)} ${fmt(e.walRecords / n).padStart(8)} ${fmt(e.walBytes / n).padStart(8)}`,
    );
    for (const [index, entries] of [...e.indexes].sort((a, b) => b[1] - a[1])) {
      console.log(`      index ${index.padEnd(46)} ${fmt(entries / n).padStart(6)} entries  ${fmt((w.indexScans.get(index) ?? 0) / n).padStart(6)} scans per 2xx`);
    }
  }
  if (w.walByRelation) {
    const kinds = new Map<string, { records: number; bytes: number }>();
    for (const byKind of w.walByRelation.values()) {
      for (const [k, p] of byKind) {
        const e = kinds.get(k) ?? { records: 0, bytes: 0 };
        e.records += p.records;
        e.bytes += p.bytes;
        kinds.set(k, e);
      }
    }
    console.log(`  WAL by record kind (records, bytes per 2xx):`);
    for (const [k, e] of [...kinds].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 14)) console.log(`    ${k.padEnd(30)} ${fmt(e.records / n).padStart(7)} ${fmt(e.bytes / n).padStart(8)}`);
  }
  if (w.statements.length > 0) {
    console.log(`  statements by time (pg_stat_statements; "nested" = inside a PL/pgSQL function, its time is also in its caller's):`);
    console.log(`    ${'ms/2xx'.padStart(7)} ${'calls/2xx'.padStart(9)} ${'rows/call'.padStart(9)}  statement`);
    for (const s of w.statements.slice(0, topStatements)) {
      const text = s.query.replace(/\s+/g, ' ').slice(0, 150);
      console.log(`    ${fmt(s.ms / n).padStart(7)} ${fmt(s.calls / n).padStart(9)} ${fmt(s.rows / Math.max(1, s.calls)).padStart(9)}  ${s.toplevel ? '' : '(nested) '}${text}`);
    }
  }
}

async function main() {
  const pgs = await benchPostgres();
  console.log(
    `PostgreSQL work per cash-out: ${SIDES.join(', ')}; load "${loadName}" (${LOAD.accounts} accounts, ${LOAD.clients} clients, ${timing.seconds}s + ${timing.warmupSeconds}s warm-up, ` +
      `settlement after ${settlementDelayMs} ms), ${ROUNDS} interleaved rounds; load average ${formatLoad(loadAverage())} at start`,
  );
  console.log(`PostgreSQL: ${pgs.describe}`);
  if (!pgs.cluster) console.log('  (a server given by BENCH_PG_URL: WAL and CPU figures are left out, other clients may write there)');
  const results = new Map<string, SideWork[]>(SIDES.map((s) => [s, []]));
  const broken: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const side of SIDES) {
      const r = await measureSide(pgs, side);
      results.get(side)!.push(r);
      const per = perCashOut(r);
      console.log(
        `  round ${round} ${side.padEnd(12)} ${r.oks} 2xx (${fmt(r.okPerSecond)}/s) ${fmt(per.get('statements (top level)')!)} stmt, ${fmt(per.get('WAL bytes') ?? NaN)} WAL B, ` +
          `${fmt(per.get('PostgreSQL CPU, ms')!)} ms PG CPU per 2xx; statuses ${formatStatuses(r.statuses)}; load ${formatLoad(r.loadBefore)} -> ${formatLoad(r.loadAfter)}`,
      );
      for (const b of r.broken) {
        console.log(`      INVARIANT BROKEN: ${b}`);
        broken.push(`round ${round} ${side}: ${b}`);
      }
    }
  }
  printComparison(results);
  for (const side of SIDES) printBreakdown(results.get(side)!.at(-1)!);
  console.log(`\nload average ${formatLoad(loadAverage())} at the end`);
  if (broken.length > 0) {
    console.log(`INVARIANTS BROKEN (${broken.length})`);
    process.exit(1);
  }
  console.log('invariants: OK after every trial');
  process.exit(0);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
