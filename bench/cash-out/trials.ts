/**
 * One trial of a cash-out or balance load on one side, each on a fresh instance (nothing of another
 * side left running). The sides:
 *
 * PostgreSQL (each in a process of its own, each on a database of its own on the benchmark's server,
 * bench/lib/postgres.ts):
 *   service      the service as users start it (`tsx src/main.ts`, DATABASE_URL set, WORKERS unset:
 *                its default for this machine)
 *   workers=N    the same with WORKERS=N (default: N = the number of cores, the old default)
 *   reference    the recording reference (bench/reference/cash-out-server.ts `record`: transfer
 *                inserted ON CONFLICT DO NOTHING + guarded balance UPDATE, one statement, pool 16):
 *                the ratios are taken against it
 *   bare-update  the bare UPDATE reference (`update`): the lower bound of work
 *   pgbouncer    the service as `service`, but through Debian's PgBouncer in transaction mode with
 *                its default settings (DATABASE_PREPARED_STATEMENTS=false, DATABASE_LISTEN_URL the
 *                direct server): the pooler's cost, chosen with BENCH_SIDES (not in the default set)
 * PGlite (in this process: the embedded database cannot be read from outside while the service holds
 * it): service, reference, bare-update.
 *
 * Service trials: accounts through the admin API, the load, then (cash-outs) a wait until every
 * cash-out is settled and its event written; the invariants (the operator's ledger check, every 201
 * stored, each externalId once). Reference trials: one cent taken and (record) one transfer per 201.
 * Statements per 2xx: PostgreSQL from pg_stat_statements (the side's database, top-level statements,
 * BEGIN/COMMIT included, from the load's start to settled + event); PGlite from the in-process tap.
 * PostgreSQL CPU per 2xx (the benchmark's own cluster only) and the side's own CPU per 2xx (its
 * process tree, /proc) over the same period are printed as notes.
 */
import { availableParallelism } from 'node:os';
import { processTreeCpuSeconds } from '../lib/cpu.ts';
import type { Engine } from '../lib/env.ts';
import { allOk, figuresOf, type Side, type Trial } from '../lib/interleave.ts';
import { runLoad, type LoadOptions, type MeasuredLoad } from '../lib/load.ts';
import { benchPostgres, resetStatements, statementCalls, type BenchPostgres } from '../lib/postgres.ts';
import type { LoadAccount, Plan } from '../lib/requests.ts';
import { startService } from '../lib/service.ts';
import { startServiceProcess } from '../lib/service-process.ts';
import { statementsSoFar } from '../lib/statement-tap.ts';
import { startCashOutReference, type ReferenceShape } from '../reference/cash-out-server.ts';
import { startReferenceProcess } from '../reference/process.ts';
import { startPgbouncer, type Pgbouncer } from '../../test/postgres/pgbouncer-kit.ts';

export interface LoadSpec {
  kind: 'cash-out' | 'balance';
  label: string;
  accounts: number;
  load: LoadOptions;
  settlementDelayMs: number;
}

/** The service with WORKERS=N. */
export function workersOf(side: Side): number | undefined {
  const m = /^workers=(\d+)$/.exec(side);
  return m ? Number(m[1]) : undefined;
}

/**
 * PostgreSQL: the default start, and WORKERS = the number of cores (the default before issue 23:
 * on a machine where the database shares the host the default is now fewer); `workers=1` and any
 * `workers=N` can be chosen with BENCH_SIDES.
 */
export const SIDES: Record<Engine, Side[]> = {
  postgres: ['service', `workers=${availableParallelism()}`, 'reference', 'bare-update'],
  pglite: ['service', 'reference', 'bare-update'],
};

const FUNDS = 1_000_000; // BRL per account: never the limit at R$ 0.01 per cash-out

/** The service's token length, learnt from its first trial, so the references' weigh the same. */
let tokenLength = 600;

const planOf = (spec: LoadSpec, accounts: LoadAccount[]): Plan =>
  spec.kind === 'cash-out' ? { kind: 'cash-out', label: spec.label, accounts } : { kind: 'balance', accounts };

function trialOf(m: MeasuredLoad, statements: number | undefined, notes: string[], broken: string[]): Trial {
  for (const e of m.firstErrors) notes.push(`first ${e}`);
  const warmupOther = Object.entries(m.warmupStatuses).filter(([s]) => !s.startsWith('2'));
  if (warmupOther.length > 0) notes.push(`warm-up (not counted) also answered ${warmupOther.map(([s, n]) => `${s}:${n}`).join(' ')}`);
  return { ...figuresOf(m), ...(statements !== undefined ? { statementsPerOk: statements / Math.max(1, allOk(m)) } : {}), notes, broken };
}

/** CPU of the database and of the side's processes over a period, per 2xx, as a note. */
function cpuMeter(pgs: BenchPostgres, pid: number) {
  const db0 = pgs.cpuSeconds();
  const own0 = processTreeCpuSeconds(pid);
  return (oks: number) => {
    const db = pgs.cpuSeconds();
    const own = processTreeCpuSeconds(pid) - own0;
    const perOk = (s: number) => `${((s * 1000) / Math.max(1, oks)).toFixed(3)} ms`;
    return `CPU per 2xx (load start to settled): PostgreSQL ${db !== undefined && db0 !== undefined ? perOk(db - db0) : 'n/a (not the benchmark\'s own cluster)'}, this side's processes ${perOk(own)}`;
  };
}

/**
 * Other checkouts of the service run as sides of their own, for a before/after comparison on one
 * runner, interleaved: BENCH_CHECKOUTS="before=/path/to/checkout" (comma-separated name=folder; each
 * folder a checkout with its own node_modules), then name the side in BENCH_SIDES. Started exactly
 * as the `service` side (WORKERS unset).
 */
export const CHECKOUTS: ReadonlyMap<Side, string> = new Map(
  (process.env.BENCH_CHECKOUTS ?? '')
    .split(',')
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()] as [string, string]),
);

/** One PgBouncer for the whole run, in front of the benchmark's server (started at the first pgbouncer trial). */
let pooler: Promise<Pgbouncer> | undefined;

/** Stops the benchmark's PgBouncer, if one was started. */
export async function stopPooler() {
  await (await pooler)?.stop();
}

async function serviceProcessTrial(spec: LoadSpec, workers: number | undefined, root?: string, throughPooler = false): Promise<Trial> {
  const pgs = await benchPostgres();
  if (throughPooler) pooler ??= startPgbouncer(pgs.url);
  const s = await startServiceProcess(pgs, { settlementDelayMs: spec.settlementDelayMs, workers, ...(root ? { root } : {}), ...(throughPooler ? { pooler: await pooler! } : {}) });
  try {
    const accounts = await s.makeAccounts(spec.accounts, FUNDS);
    tokenLength = accounts[0]!.token.length;
    await resetStatements(pgs, s.database);
    const cpu = cpuMeter(pgs, s.pid);
    const m = await runLoad(s.origin, planOf(spec, accounts), spec.load);
    const notes: string[] = [];
    if (spec.kind === 'cash-out' && !(await s.waitSettled())) notes.push('not all cash-outs settled within 120 s: statements counted until then');
    const statements = await statementCalls(pgs, s.database);
    notes.push(cpu(allOk(m)));
    const broken = spec.kind === 'cash-out' ? await s.invariants(m.created) : await s.ledgerFindings();
    return trialOf(m, statements, notes, broken);
  } finally {
    await s.close();
  }
}

async function referenceProcessTrial(spec: LoadSpec, shape: ReferenceShape): Promise<Trial> {
  const pgs = await benchPostgres();
  const r = await startReferenceProcess(pgs, shape);
  try {
    const accounts = await r.makeAccounts(spec.accounts, FUNDS, tokenLength);
    await resetStatements(pgs, r.database);
    const cpu = cpuMeter(pgs, r.pid);
    const m = await runLoad(r.origin, planOf(spec, accounts), spec.load);
    const statements = await statementCalls(pgs, r.database);
    return trialOf(m, statements, [cpu(allOk(m))], await r.invariants(m.created.length));
  } finally {
    await r.close();
  }
}

async function pgliteServiceTrial(spec: LoadSpec): Promise<Trial> {
  const s = await startService('pglite', { settlementDelayMs: spec.settlementDelayMs });
  try {
    const accounts = await s.makeAccounts(spec.accounts, FUNDS);
    tokenLength = accounts[0]!.token.length;
    const batches = s.batchStats();
    const before = statementsSoFar();
    const m = await runLoad(s.origin, planOf(spec, accounts), spec.load);
    const notes: string[] = [];
    if (spec.kind === 'cash-out' && !(await s.waitSettled())) notes.push('not all cash-outs settled within 60 s: statements counted until then');
    const statements = statementsSoFar() - before;
    const after = s.batchStats();
    if (batches && after && spec.kind === 'cash-out') {
      const n = after.batches - batches.batches;
      notes.push(`${n} batches, ${(n ? (after.items - batches.items) / n : 0).toFixed(1)} per batch, ${after.retries - batches.retries} reruns, ${after.fallbacks - batches.fallbacks} one by one`);
    }
    return trialOf(m, statements, notes, await s.invariants(m.created));
  } finally {
    await s.close();
  }
}

async function pgliteReferenceTrial(spec: LoadSpec, shape: ReferenceShape): Promise<Trial> {
  const r = await startCashOutReference('pglite', shape);
  try {
    const accounts = await r.makeAccounts(spec.accounts, FUNDS, tokenLength);
    const before = statementsSoFar();
    const m = await runLoad(r.origin, planOf(spec, accounts), spec.load);
    return trialOf(m, statementsSoFar() - before, [], await r.invariants(m.created.length));
  } finally {
    await r.close();
  }
}

export const trial =
  (engine: Engine, spec: LoadSpec) =>
  (side: Side): Promise<Trial> => {
    const shape: ReferenceShape | undefined = side === 'reference' ? 'record' : side === 'bare-update' ? 'update' : undefined;
    if (engine === 'pglite') return shape ? pgliteReferenceTrial(spec, shape) : pgliteServiceTrial(spec);
    if (shape) return referenceProcessTrial(spec, shape);
    return serviceProcessTrial(spec, workersOf(side), CHECKOUTS.get(side), side === 'pgbouncer');
  };
