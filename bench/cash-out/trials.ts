/**
 * One trial of a cash-out or balance load on each side, each on a fresh instance (nothing left
 * running from the other side's trial):
 *
 * - service: the service in-process (bench/lib/service.ts), accounts through the admin API, the
 *   load, then (cash-outs) a wait until every cash-out is settled and its event written; statements
 *   are counted from the load's start to that point. Then the invariants: ledger check green, every
 *   201 stored, each externalId once.
 * - reference: the bare server (bench/reference/cash-out-server.ts) with the same accounts count and
 *   tokens of the same length, the same load; statements counted the same way; its check: one cent
 *   taken per 201.
 */
import type { Engine } from '../lib/env.ts';
import { allOk, figuresOf, type Side, type Trial } from '../lib/interleave.ts';
import { runLoad, type LoadOptions, type MeasuredLoad } from '../lib/load.ts';
import type { LoadAccount, Plan } from '../lib/requests.ts';
import { startService } from '../lib/service.ts';
import { statementsSoFar } from '../lib/statement-tap.ts';
import { startCashOutReference } from '../reference/cash-out-server.ts';

export interface LoadSpec {
  kind: 'cash-out' | 'balance';
  label: string;
  accounts: number;
  load: LoadOptions;
  settlementDelayMs: number;
}

const FUNDS = 1_000_000; // BRL per account: never the limit at R$ 0.01 per cash-out

/** The service's token length, learnt from its first trial, so the reference's weigh the same. */
let tokenLength = 600;

const planOf = (spec: LoadSpec, accounts: LoadAccount[]): Plan =>
  spec.kind === 'cash-out' ? { kind: 'cash-out', label: spec.label, accounts } : { kind: 'balance', accounts };

function trialOf(m: MeasuredLoad, statements: number, notes: string[], broken: string[]): Trial {
  for (const e of m.firstErrors) notes.push(`first ${e}`);
  const warmupOther = Object.entries(m.warmupStatuses).filter(([s]) => !s.startsWith('2'));
  if (warmupOther.length > 0) notes.push(`warm-up (not counted) also answered ${warmupOther.map(([s, n]) => `${s}:${n}`).join(' ')}`);
  return { ...figuresOf(m), statementsPerOk: statements / Math.max(1, allOk(m)), notes, broken };
}

async function serviceTrial(engine: Engine, spec: LoadSpec): Promise<Trial> {
  const s = await startService(engine, { settlementDelayMs: spec.settlementDelayMs });
  try {
    const accounts = await s.makeAccounts(spec.accounts, FUNDS);
    tokenLength = accounts[0]!.token.length;
    const batches = s.batchStats();
    const before = statementsSoFar();
    const m = await runLoad(s.origin, planOf(spec, accounts), spec.load);
    const notes: string[] = [];
    const broken: string[] = [];
    if (spec.kind === 'cash-out') {
      if (!(await s.waitSettled())) notes.push('not all cash-outs settled within 60 s: statements counted until then');
    }
    const statements = statementsSoFar() - before;
    const after = s.batchStats();
    if (batches && after && spec.kind === 'cash-out') {
      const n = after.batches - batches.batches;
      notes.push(`${n} batches, ${(n ? (after.items - batches.items) / n : 0).toFixed(1)} per batch, ${after.retries - batches.retries} reruns, ${after.fallbacks - batches.fallbacks} one by one`);
    }
    broken.push(...(await s.invariants(m.created)));
    return trialOf(m, statements, notes, broken);
  } finally {
    await s.close();
  }
}

async function referenceTrial(engine: Engine, spec: LoadSpec): Promise<Trial> {
  const r = await startCashOutReference(engine);
  try {
    const accounts = await r.makeAccounts(spec.accounts, FUNDS, tokenLength);
    const before = statementsSoFar();
    const m = await runLoad(r.origin, planOf(spec, accounts), spec.load);
    const statements = statementsSoFar() - before;
    return trialOf(m, statements, [], await r.invariants(m.created.length));
  } finally {
    await r.close();
  }
}

export const trial = (engine: Engine, spec: LoadSpec) => (side: Side) => (side === 'service' ? serviceTrial(engine, spec) : referenceTrial(engine, spec));
