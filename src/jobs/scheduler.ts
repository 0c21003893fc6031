import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.ts';
import type { DB } from '../db/schema.ts';
import type { Metrics } from '../metrics.ts';
import { createJobDrain } from './job-drain.ts';
import { createJobInserts } from './job-inserts.ts';
import { createJobKinds } from './job-kinds.ts';
import { createJobLeases } from './job-leases.ts';
import { createJobPoller } from './job-poller.ts';
import { createStepRunner } from './steps.ts';
import { createTransactionalJobs } from './transactional-jobs.ts';

export type { Job } from './job.ts';
export type { BatchJobHandler, JobHandler, JobKindOptions } from './job-kinds.ts';
export { LEASE_SECONDS } from './job-leases.ts';

/**
 * One durable scheduler over the `jobs` table. `schedule` writes a row in the caller's transaction;
 * `runDue` claims due rows of every kind it knows in one statement (FOR UPDATE SKIP LOCKED, under a
 * lease on the database's real clock), then runs transactional kinds in one transaction that locks
 * the rows still under its lease, each job in a savepoint, so a job's effects and its deletion
 * commit at once and two instances never run one job at the same time; and hands step kinds
 * (steps.ts) their call-then-record. A crash leaves a claimed job to run again when its lease lapses.
 * Due times come from the Clock: advancing the sandbox clock makes jobs due.
 *
 * Its parts: the kinds it knows (job-kinds.ts), writing jobs (job-inserts.ts), claims and leases
 * (job-leases.ts), running transactional jobs (transactional-jobs.ts) and step jobs (steps.ts), the
 * drain of everything due (job-drain.ts) and the background timer (job-poller.ts).
 */
export function createScheduler(deps: {
  db: Kysely<DB>;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics;
  batchSize?: number;
  pollMs?: number;
  /** Claim loops run at once (PostgreSQL: a few; PGlite runs one statement at a time: 1). */
  concurrency?: number;
  /**
   * Set when something calls `wakeAt` for every job enqueued (the container wires NOTIFY to it): the
   * poller then sleeps until the next job is due, looking on its own only this often (a safety net).
   * Unset: it polls every `pollMs`.
   */
  safetyPollMs?: number;
}) {
  /** Jobs that talk to the outside: claimed under a lease, run outside any transaction (steps.ts). */
  const steps = createStepRunner(deps);
  const kinds = createJobKinds(steps);
  const inserts = createJobInserts({ clock: deps.clock, maxAttemptsOf: kinds.maxAttemptsOf });
  const leases = createJobLeases({ db: deps.db, clock: deps.clock, logger: deps.logger, batchSize: deps.batchSize ?? 50, kinds: kinds.all });
  const { runInTransaction } = createTransactionalJobs({ ...deps, kinds, leases });
  const drain = createJobDrain({ kinds, leases, steps, runInTransaction, concurrency: Math.max(1, deps.concurrency ?? 1) });
  const poller = createJobPoller({
    clock: deps.clock,
    logger: deps.logger,
    pollMs: deps.pollMs ?? 200,
    safetyPollMs: deps.safetyPollMs,
    runDue: drain.runDue,
    pass: () => drain.pass(() => deps.clock.now()),
  });

  return {
    register: kinds.register,
    registerStep: kinds.registerStep,
    lookSoon: poller.lookSoon,
    /** Every job kind this instance runs (jobs_waiting has a series for each from the start). */
    kinds: kinds.all,
    schedule: inserts.schedule,
    scheduleMany: inserts.scheduleMany,
    scheduleManyStatement: inserts.scheduleManyStatement,
    runDue: drain.runDue,
    wakeAt: poller.wakeAt,
    /** Started and not stopped: the poller is claiming due jobs (GET /ready). */
    isRunning: poller.isRunning,
    start: poller.start,
    async stop() {
      poller.halt();
      await drain.stop();
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
