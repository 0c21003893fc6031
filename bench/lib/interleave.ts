/**
 * Runs one load interleaved on two sides (service, reference, service, reference, ... for N rounds),
 * prints each trial as it ends (with the machine's load average before and after), then the medians
 * per side and each service figure as a ratio to the reference's, and the target when there is one.
 */
import type { MeasuredLoad } from './load.ts';
import { fmt, formatLoad, formatStatuses, median, percentile, ratio } from './stats.ts';

/** A side of a comparison: a name such as 'service', 'workers=1', 'reference', 'bare-update'. */
export type Side = string;

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

function line(side: Side, round: number, t: Trial, width: number): string {
  const statements = t.statementsPerOk === undefined ? '' : `  ${fmt(t.statementsPerOk).padStart(5)} stmt/2xx`;
  return (
    `  round ${round} ${side.padEnd(width)} ${fmt(t.okPerSecond).padStart(7)} 2xx/s  p50 ${fmt(t.p50).padStart(6)} ms  p99 ${fmt(t.p99).padStart(6)} ms${statements}` +
    `  statuses ${formatStatuses(t.statuses)}  load ${formatLoad(t.loadBefore)} -> ${formatLoad(t.loadAfter)}`
  );
}

export interface Summary {
  title: string;
  sides: Side[];
  baseline: Side;
  trials: Record<Side, Trial[]>;
  broken: string[];
}

/** The median of one figure over a side's trials. */
export const medianOf = (summary: Summary, side: Side, f: (t: Trial) => number | undefined) => median((summary.trials[side] ?? []).map((t) => f(t) ?? NaN));

/**
 * Runs the load on every side in turn, round after round (a, b, c, a, b, c, ...), each trial on a
 * fresh instance, then prints the medians and each side's ratio to `baseline` (the reference), and
 * the target for the sides it applies to (`targetSides`, default: the first).
 */
export async function interleave(load: InterleavedLoad, rounds: number, sides: readonly Side[] = ['service', 'reference'], baseline: Side = 'reference', targetSides: readonly Side[] = [sides[0]!]): Promise<Summary> {
  console.log(`\n${load.title}`);
  const trials: Record<Side, Trial[]> = Object.fromEntries(sides.map((side) => [side, [] as Trial[]]));
  const broken: string[] = [];
  const width = Math.max(...sides.map((s) => s.length));
  for (let round = 1; round <= rounds; round++) {
    for (const side of sides) {
      const t = await load.trial(side, round);
      trials[side]!.push(t);
      console.log(line(side, round, t, width));
      for (const note of t.notes) console.log(`      ${note}`);
      for (const b of t.broken) {
        console.log(`      INVARIANT BROKEN: ${b}`);
        broken.push(`${load.title}, round ${round} ${side}: ${b}`);
      }
    }
  }
  const summary: Summary = { title: load.title, sides: [...sides], baseline, trials, broken };
  const figures: Array<[string, (t: Trial) => number | undefined, string]> = [
    ['2xx/s', (t) => t.okPerSecond, ''],
    ['p50', (t) => t.p50, ' ms'],
    ['p99', (t) => t.p99, ' ms'],
    ['statements/2xx', (t) => t.statementsPerOk, ''],
  ];
  console.log(`  medians of ${rounds} rounds (ratio to ${baseline}):`);
  for (const [name, f, unit] of figures) {
    const base = medianOf(summary, baseline, f);
    const cells = sides.map((side) => {
      const v = medianOf(summary, side, f);
      return `${side} ${(fmt(v) + unit).padStart(9)}${side === baseline ? '' : ` (${fmt(ratio(v, base))}x)`}`;
    });
    if (sides.every((side) => !Number.isFinite(medianOf(summary, side, f)))) continue;
    console.log(`    ${name.padEnd(15)} ${cells.join('   ')}`);
  }
  if (load.target) {
    const { figure, op, ratio: wanted } = load.target;
    const loads = sides.flatMap((side) => trials[side]!.flatMap((t) => [t.loadBefore[0]!, t.loadAfter[0]!]));
    for (const side of targetSides) {
      const got = ratio(medianOf(summary, side, (t) => t[figure]), medianOf(summary, baseline, (t) => t[figure]));
      const met = op === '>=' ? got >= wanted : got <= wanted;
      console.log(
        `    target (${side}): ${figure === 'okPerSecond' ? 'throughput' : 'p99'} ratio ${op} ${wanted}: ${fmt(got)} (${met ? 'met' : 'NOT met'}; ` +
          `1-min load average ${fmt(Math.min(...loads))}..${fmt(Math.max(...loads))} during these rounds)`,
      );
    }
  }
  return summary;
}
