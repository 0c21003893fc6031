import { randomUUID } from 'node:crypto';
import type { JobKinds } from './job-kinds.ts';
import { byClock } from './job-clocks.ts';
import { withAccountClock } from '../services/test-clocks/account-time.ts';
import type { JobLeases } from './job-leases.ts';
import type { Claimed, StepRunner } from './steps.ts';

/**
 * Claims due jobs batch after batch and hands each kind to its runner: transactional kinds to
 * `runInTransaction`, step kinds to the step runner. One drain at a time per instance.
 */
export function createJobDrain(deps: {
  kinds: JobKinds;
  leases: JobLeases;
  steps: StepRunner;
  runInTransaction: (kind: string, rows: Claimed[], token: string) => Promise<void>;
  /** Claim loops run at once (PostgreSQL: a few; PGlite runs one statement at a time: 1). */
  concurrency: number;
}) {
  const { kinds, leases } = deps;
  let running: Promise<unknown> | undefined;
  /**
   * Counts stop() calls: a drain in progress when stop() is called ends after its current batch.
   * Without it a stopping instance keeps claiming as long as other instances keep scheduling (a
   * rolling restart under load), and its shutdown never ends. A count, not a flag: a runDue() called
   * after stop() (tests and tools drain a stopped scheduler) still runs everything due.
   */
  let stops = 0;

  function byKind(claimed: Claimed[]): Map<string, Claimed[]> {
    const groups = new Map<string, Claimed[]>();
    for (const row of claimed) {
      const list = groups.get(row.kind);
      if (list) list.push(row);
      else groups.set(row.kind, [row]);
    }
    return groups;
  }

  /** Claims and runs one batch of due jobs of every kind; answers how many it claimed. */
  async function runBatch(): Promise<number> {
    await leases.releaseInDoubt();
    const token = randomUUID();
    let claimed: Claimed[];
    try {
      claimed = await leases.claimDue(token);
    } catch (error) {
      // The claim may have committed though its answer was lost.
      leases.doubt(token);
      throw error;
    }
    if (claimed.length === 0) return 0;
    const groups = byKind(claimed);
    const stepIds = claimed.filter((row) => !kinds.isTransactional(row.kind)).map((row) => Number(row.id));
    const renewal = stepIds.length > 0 ? leases.keepLeased(token, stepIds) : undefined;
    try {
      for (const [kind, rows] of groups) if (kinds.isTransactional(kind)) await deps.runInTransaction(kind, rows, token);
      for (const [kind, rows] of groups) {
        if (kinds.isTransactional(kind)) continue;
        // Each group on its own time: the service clock, or one test clock (issue 29 item 3).
        for (const [scope, group] of byClock(rows)) await withAccountClock(scope, () => deps.steps.runClaimed(kind, group, token));
      }
    } catch (error) {
      // Recording or handing back failed (the database went away): whatever is still leased to this
      // claim is released once the database answers.
      leases.doubt(token);
      throw error;
    } finally {
      renewal?.stop();
    }
    return claimed.length;
  }

  /** Runs everything due now, batch after batch (jobs a job schedules for now run too). */
  async function runDue(): Promise<number> {
    // Serialise with the poller so a drain never races a background batch on the same instance.
    while (running) await running.catch(() => {});
    // A few claim loops at once on PostgreSQL (SKIP LOCKED gives each its own jobs).
    const stopsAtStart = stops;
    const loop = async () => {
      let total = 0;
      for (let i = 0; i < 1000 && stops === stopsAtStart; i++) {
        const n = await runBatch();
        total += n;
        if (n === 0) break;
      }
      return total;
    };
    const work = Promise.all(Array.from({ length: deps.concurrency }, loop)).then((counts) => counts.reduce((a, b) => a + b, 0));
    running = work;
    try {
      return await work;
    } finally {
      if (running === work) running = undefined;
    }
  }

  /** With wake-ups: one cheap look, work only when something is due; answers the next due time. */
  async function pass(now: () => Date): Promise<Date | undefined> {
    await leases.releaseInDoubt();
    const next = await leases.nextDue();
    if (next === undefined || next > now()) return next;
    await runDue();
    return leases.nextDue();
  }

  return {
    runDue,
    pass,
    /** The drain in progress ends after its current batch; resolves when it has. */
    async stop() {
      stops += 1;
      while (running) await running.catch(() => {});
    },
  };
}
