/**
 * Runs one load interleaved on two sides (service, reference, service, reference, ... for N rounds),
 * prints each trial as it ends (with the machine's load average before and after), then the medians
 * per side and each service figure as a ratio to the reference's, and the target when there is one.
 */
import type { MeasuredLoad } from './load.ts';
import { fmt, formatLoad, formatStatuses, median, percentile, ratio } from './stats.ts';

export type Side = 'service' | 'reference';

export interface Trial {
  /** 2xx answers per second of the measured period. */
  okPerSecond: number;
  p50: number;
  p99: number;
  /** Statements sent to the database per 2xx answer (see statement-tap.ts), when counted. */
  statementsPerOk?: number;
  statuses: Record<string, number>;
  loadBefore: readonly number[];
  loadAfter: readonly number[];
  /** Extra facts worth a line (batches, unsettled, first errors). */
  notes: string[];
  /** Broken invariants: the run exits non-zero. */
  broken: string[];
}

export interface Target {
  figure: 'okPerSecond' | 'p99';
  /** The service/reference ratio wanted: at least (>=) or at most (<=). */
  op: '>=' | '<=';
  ratio: number;
}

export interface InterleavedLoad {
  title: string;
  target?: Target;
  trial(side: Side, round: number): Promise<Trial>;
}

/** The figures of a measured load, 2xx only. */
export function figuresOf(m: MeasuredLoad): Pick<Trial, 'okPerSecond' | 'p50' | 'p99' | 'statuses' | 'loadBefore' | 'loadAfter'> {
  return { okPerSecond: m.okPerSecond, p50: percentile(m.sorted, 50), p99: percentile(m.sorted, 99), statuses: m.statuses, loadBefore: m.loadBefore, loadAfter: m.loadAfter };
}

/** 2xx answers of the whole run, warm-up included (what the statements were spent on). */
export function allOk(m: MeasuredLoad): number {
  let n = 0;
  for (const statuses of [m.statuses, m.warmupStatuses]) for (const [s, c] of Object.entries(statuses)) if (s.startsWith('2')) n += c;
  return n;
}

function line(side: Side, round: number, t: Trial): string {
  const statements = t.statementsPerOk === undefined ? '' : `  ${fmt(t.statementsPerOk).padStart(5)} stmt/2xx`;
  return (
    `  round ${round} ${side.padEnd(9)} ${fmt(t.okPerSecond).padStart(7)} 2xx/s  p50 ${fmt(t.p50).padStart(6)} ms  p99 ${fmt(t.p99).padStart(6)} ms${statements}` +
    `  statuses ${formatStatuses(t.statuses)}  load ${formatLoad(t.loadBefore)} -> ${formatLoad(t.loadAfter)}`
  );
}

export interface Summary {
  title: string;
  service: Trial[];
  reference: Trial[];
  broken: string[];
}

export async function interleave(load: InterleavedLoad, rounds: number): Promise<Summary> {
  console.log(`\n${load.title}`);
  const trials: Record<Side, Trial[]> = { service: [], reference: [] };
  const broken: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const side of ['service', 'reference'] as const) {
      const t = await load.trial(side, round);
      trials[side].push(t);
      console.log(line(side, round, t));
      for (const note of t.notes) console.log(`      ${note}`);
      for (const b of t.broken) {
        console.log(`      INVARIANT BROKEN: ${b}`);
        broken.push(`${load.title}, round ${round} ${side}: ${b}`);
      }
    }
  }
  const med = (side: Side, f: (t: Trial) => number | undefined) => median(trials[side].map((t) => f(t) ?? NaN));
  const figures: Array<[string, (t: Trial) => number | undefined, string]> = [
    ['2xx/s', (t) => t.okPerSecond, ''],
    ['p50', (t) => t.p50, ' ms'],
    ['p99', (t) => t.p99, ' ms'],
    ['statements/2xx', (t) => t.statementsPerOk, ''],
  ];
  console.log(`  medians of ${rounds} rounds:`);
  for (const [name, f, unit] of figures) {
    const s = med('service', f);
    const r = med('reference', f);
    if (!Number.isFinite(s) && !Number.isFinite(r)) continue;
    console.log(`    ${name.padEnd(15)} service ${(fmt(s) + unit).padStart(10)}   reference ${(fmt(r) + unit).padStart(10)}   ratio ${fmt(ratio(s, r))}x`);
  }
  if (load.target) {
    const { figure, op, ratio: wanted } = load.target;
    const got = ratio(med('service', (t) => t[figure]), med('reference', (t) => t[figure]));
    const met = op === '>=' ? got >= wanted : got <= wanted;
    const loads = [...trials.service, ...trials.reference].flatMap((t) => [t.loadBefore[0]!, t.loadAfter[0]!]);
    console.log(
      `    target: ${figure === 'okPerSecond' ? 'throughput' : 'p99'} ratio ${op} ${wanted}: ${fmt(got)} (${met ? 'met' : 'NOT met'}; ` +
        `1-min load average ${fmt(Math.min(...loads))}..${fmt(Math.max(...loads))} during these rounds)`,
    );
  }
  return { title: load.title, service: trials.service, reference: trials.reference, broken };
}
