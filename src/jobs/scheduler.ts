import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.ts';
import { isRetryableConflict } from '../db/db-faults.ts';
import type { DB } from '../db/schema.ts';
import type { Metrics } from '../metrics.ts';
import { randomUUID } from 'node:crypto';
import { prepared } from '../db/prepared.ts';
import type { Job } from './job.ts';
import { claimedNow, createStepRunner, type Claimed, type StepHandler } from './steps.ts';
import { currentAccountClock, withAccountClock, type AccountClockScope } from '../services/test-clocks/account-time.ts';
import { currentTrace, outsideRequest, traceFrom, withTrace } from '../observability/trace-context.ts';

/**
 * A job scheduled while a traced request (or a job running in a trace) is served keeps that trace in
 * its payload (`trace`), unless the payload names its own (issue 31 item 4).
 */
function withCurrentTrace(payload: Record<string, unknown>): Record<string, unknown> {
  if (payload.trace !== undefined) return payload;
  const trace = currentTrace();
  return trace ? { ...payload, trace } : payload;
}

export type { Job } from './job.ts';

/** Runs inside the transaction that claimed the job: its effects and the job's removal commit together. */
export type JobHandler<P = any> = (trx: Trx<DB>, job: Job<P>) => Promise<void>;

/**
 * Runs many claimed jobs of one kind at once, in a savepoint of the claiming transaction, with
 * multi-row statements. If it throws, each job runs alone through the kind's handler instead, so
 * one bad job never holds back the others.
 */
export type BatchJobHandler<P = any> = (trx: Trx<DB>, jobs: Array<Job<P>>) => Promise<void>;

export interface JobKindOptions<P = any> {
  maxAttempts?: number;
  batch?: BatchJobHandler<P>;
  /**
   * Takes, once for every claimed job of the kind and before any of them runs, the row locks the
   * jobs will need, in the one lock order (docs/decisions.md "One lock order": e.g. all their
   * accounts by ascending id in one statement). Without it, jobs run one after the other in one
   * transaction would lock each job's rows in turn: out of order across jobs.
   */
  lock?: (trx: Trx<DB>, jobs: Array<Job<P>>) => Promise<void>;
  /** Seconds to wait before the given (1-based) retry. Default: 5 s doubling, at most 1 h. */
  backoff?: (attempt: number) => number;
}

const defaultBackoff = (attempt: number) => Math.min(3600, 5 * 2 ** (attempt - 1));

/**
 * How long a claim holds unless renewed (issue 20, item 5): short, so the jobs of a worker that
 * died, or of a claim whose answer was lost, run again soon; a live worker renews its step jobs'
 * lease every RENEW_EVERY_MS while their call runs (a provider call may take longer than this), so
 * it never loses one it is working on.
 */
export const LEASE_SECONDS = 15;
const RENEW_EVERY_MS = 5_000;
/** Claims in doubt remembered at most (a few per failed poll; their leases lapse anyway). */
const MAX_IN_DOUBT = 1_000;

/**
 * One durable scheduler over the `jobs` table. `schedule` writes a row in the caller's transaction;
 * `runDue` claims due rows of every kind it knows in one statement (FOR UPDATE SKIP LOCKED, under a
 * lease on the database's real clock), then runs transactional kinds in one transaction that locks
 * the rows still under its lease, each job in a savepoint, so a job's effects and its deletion
 * commit at once and two instances never run one job at the same time; and hands step kinds
 * (steps.ts) their call-then-record. A crash leaves a claimed job to run again when its lease lapses.
 * Due times come from the Clock: advancing the sandbox clock makes jobs due.
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
  const handlers = new Map<string, { handler: JobHandler; options: JobKindOptions }>();
  /**
   * Lease tokens of claims this instance gave up on while the database was failing: the claim may
   * have committed though its answer was lost (the connection reset as it committed), or its jobs
   * could not be handed back. Released as soon as the database answers again, so those jobs run
   * again at once instead of when their lease lapses.
   */
  const inDoubt = new Set<string>();
  const batchSize = deps.batchSize ?? 50;
  /** Jobs that talk to the outside: claimed under a lease, run outside any transaction (steps.ts). */
  const steps = createStepRunner(deps);
  const pollMs = deps.pollMs ?? 200;
  const concurrency = Math.max(1, deps.concurrency ?? 1);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  /**
   * Counts stop() calls: a drain in progress when stop() is called ends after its current batch.
   * Without it a stopping instance keeps claiming as long as other instances keep scheduling (a
   * rolling restart under load), and its shutdown never ends. A count, not a flag: a runDue() called
   * after stop() (tests and tools drain a stopped scheduler) still runs everything due.
   */
  let stops = 0;

  function register<P>(kind: string, handler: JobHandler<P>, options: JobKindOptions<P> = {}) {
    if (handlers.has(kind) || steps.kinds().includes(kind)) throw new Error(`job kind ${kind} registered twice`);
    handlers.set(kind, { handler, options });
  }

  /** A kind whose jobs call the outside world: see StepHandler (never inside a transaction). */
  function registerStep<P, A>(kind: string, handler: StepHandler<P, A>) {
    if (handlers.has(kind)) throw new Error(`job kind ${kind} registered twice`);
    steps.register(kind, handler);
  }

  const maxAttemptsOf = (kind: string) => handlers.get(kind)?.options.maxAttempts ?? steps.maxAttemptsOf(kind) ?? 10;

  async function schedule(
    trx: Kysely<DB> | Trx<DB>,
    kind: string,
    runAt: Date,
    payload: Record<string, unknown> = {},
  ): Promise<number> {
    const now = deps.clock.now();
    const row = await trx
      .insertInto('jobs')
      .values({
        kind,
        run_at: runAt,
        payload: JSON.stringify(withCurrentTrace(payload)),
        max_attempts: maxAttemptsOf(kind),
        // A job of an account on a test clock falls due on that clock (issue 29 item 3).
        clock_id: currentAccountClock()?.clockId ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * The INSERT of many jobs of one kind (at least one), for a caller that runs it inside a larger
   * statement (a CTE) to save a round trip; `scheduleMany` runs it alone.
   */
  function scheduleManyStatement(kind: string, jobs: Array<{ runAt: Date; payload: Record<string, unknown> }>) {
    if (jobs.length === 0) throw new Error('scheduleManyStatement needs at least one job');
    const now = deps.clock.now();
    const maxAttempts = maxAttemptsOf(kind);
    const clockId = currentAccountClock()?.clockId;
    if (clockId !== undefined) {
      // A job of an account on a test clock falls due on that clock (issue 29 item 3).
      const rows = jobs.map((j) => sql`(${kind}, ${j.runAt}::timestamptz, ${JSON.stringify(withCurrentTrace(j.payload))}::jsonb, ${maxAttempts}::int, ${now}::timestamptz, ${now}::timestamptz, ${clockId}::uuid)`);
      return sql`INSERT INTO jobs (kind, run_at, payload, max_attempts, created_at, updated_at, clock_id) VALUES ${sql.join(rows)}`;
    }
    const rows = jobs.map((j) => sql`(${kind}, ${j.runAt}::timestamptz, ${JSON.stringify(withCurrentTrace(j.payload))}::jsonb, ${maxAttempts}::int, ${now}::timestamptz, ${now}::timestamptz)`);
    return sql`INSERT INTO jobs (kind, run_at, payload, max_attempts, created_at, updated_at) VALUES ${sql.join(rows)}`;
  }

  /** `schedule` for many jobs of one kind: one multi-row insert. */
  async function scheduleMany(
    trx: Kysely<DB> | Trx<DB>,
    kind: string,
    jobs: Array<{ runAt: Date; payload: Record<string, unknown> }>,
  ): Promise<void> {
    if (jobs.length === 0) return;
    await scheduleManyStatement(kind, jobs).execute(trx);
  }

  /** One job alone, in its savepoint: done (deleted) or failed (retried later, or given up). */
  async function runOne(trx: Trx<DB>, row: Claimed, serviceNow: Date): Promise<void> {
    const now = claimedNow(row, serviceNow);
    const attempt = row.attempts + 1;
    const entry = handlers.get(row.kind);
    await sql`SAVEPOINT job`.execute(trx);
    const started = performance.now();
    try {
      if (!entry) throw new Error(`no handler for job kind "${row.kind}"`);
      // In the trace of the request that caused it: its calls, follow-up jobs and events carry it.
      await withTrace(traceFrom(row.payload.trace), () => entry.handler(trx, { id: row.id, kind: row.kind, payload: row.payload, attempt }));
      await sql`RELEASE SAVEPOINT job`.execute(trx);
      await trx.deleteFrom('jobs').where('id', '=', row.id).execute();
      deps.metrics?.jobs.inc({ kind: row.kind, outcome: 'done' });
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT job`.execute(trx);
      // A deadlock or serialization abort says nothing about the job: it is retried without using
      // up an attempt, so contention alone can never leave a payment PENDING with its money held.
      const conflict = isRetryableConflict(error);
      const counted = conflict ? row.attempts : attempt;
      const failed = !conflict && attempt >= row.max_attempts;
      const delay = (entry?.options.backoff ?? defaultBackoff)(attempt);
      await trx
        .updateTable('jobs')
        .set({
          attempts: counted,
          status: failed ? 'failed' : 'pending',
          run_at: new Date(now.getTime() + (conflict ? Math.min(delay, 5) : delay) * 1000),
          last_error: String((error as Error)?.stack ?? error).slice(0, 2000),
          lease_until: null,
          lease_token: null,
          updated_at: now,
        })
        .where('id', '=', row.id)
        .execute();
      deps.metrics?.jobs.inc({ kind: row.kind, outcome: failed ? 'failed' : 'retry' });
      if (failed) {
        // Never silent: whatever the job was finishing (a payout's held money, an event) now waits
        // for an operator; the row stays in `jobs` with status 'failed' and its last error.
        deps.logger.error({ err: error, jobId: row.id, kind: row.kind, attempt, payload: row.payload }, 'job gave up after its last attempt; its work needs an operator');
      } else {
        deps.logger.warn({ err: error, jobId: row.id, kind: row.kind, attempt, conflict }, 'job failed; it will run again');
      }
    } finally {
      deps.metrics?.jobDuration.observe({ kind: row.kind }, (performance.now() - started) / 1000);
    }
  }

  /** Many jobs of a kind with a batch handler; on any error, each one alone. */
  async function runMany(trx: Trx<DB>, kind: string, batch: BatchJobHandler, rows: Claimed[], now: Date): Promise<void> {
    await sql`SAVEPOINT jobs`.execute(trx);
    const started = performance.now();
    try {
      await batch(trx, rows.map((row) => ({ id: row.id, kind: row.kind, payload: row.payload, attempt: row.attempts + 1 })));
      await sql`RELEASE SAVEPOINT jobs`.execute(trx);
      await trx.deleteFrom('jobs').where('id', 'in', rows.map((r) => r.id)).execute();
      deps.metrics?.jobs.inc({ kind, outcome: 'done' }, rows.length);
      deps.metrics?.jobDuration.observe({ kind }, (performance.now() - started) / 1000 / rows.length);
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT jobs`.execute(trx);
      deps.logger.warn({ err: error, kind, jobs: rows.length }, 'job batch failed; running its jobs one by one');
      for (const row of rows) await runOne(trx, row, now);
    }
  }

  /**
   * Claims due jobs of every kind this instance knows, in ONE statement that commits a lease on
   * them (an idle pass costs just that statement). Due time is business time (the service clock);
   * the lease is liveness, on the database server's real clock.
   */
  async function claimDue(token: string): Promise<Claimed[]> {
    const now = deps.clock.now();
    const kinds = [...handlers.keys(), ...steps.kinds()];
    if (kinds.length === 0) return [];
    // Two sets of due jobs: those on the service clock (due by `now`), and those of accounts on a
    // test clock (due by that clock's frozen time; migration 1500), each under its own index.
    const rows = await sql<Claimed>`
      ${prepared('claim_due_jobs_1500')}WITH on_service AS (
         SELECT id FROM jobs
          WHERE status = 'pending' AND run_at <= ${now} AND clock_id IS NULL AND (lease_until IS NULL OR lease_until < now())
            AND kind = ANY (${kinds}::text[])
          ORDER BY run_at, id
          LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED),
       on_clocks AS (
         SELECT j.id FROM jobs j JOIN test_clocks c ON c.id = j.clock_id
          WHERE j.status = 'pending' AND j.clock_id IS NOT NULL AND j.run_at <= c.frozen_time AND (j.lease_until IS NULL OR j.lease_until < now())
            AND j.kind = ANY (${kinds}::text[])
          ORDER BY j.run_at, j.id
          LIMIT ${batchSize}
          FOR UPDATE OF j SKIP LOCKED)
      UPDATE jobs SET lease_until = now() + make_interval(secs => ${LEASE_SECONDS}), lease_token = ${token}, updated_at = ${now}
       WHERE id IN (SELECT id FROM on_service UNION ALL SELECT id FROM on_clocks)
      RETURNING id, kind, payload, attempts, max_attempts, clock_id,
                (SELECT c.frozen_time FROM test_clocks c WHERE c.id = jobs.clock_id) AS clock_time`.execute(deps.db);
    return rows.rows.sort((a, b) => Number(a.id) - Number(b.id));
  }

  /**
   * The claimed transactional jobs of one kind, in one transaction: the rows still under our lease
   * are locked first (a claim taken over after its lease lapsed is not ours any more), then the
   * kind's `lock` takes every lock its jobs need, then they run (as a batch when they can) and each
   * job's effects commit with its removal. One transaction per kind: two kinds in one transaction
   * would take their rows (charges, accounts) in an order no other path follows.
   */
  async function runInTransaction(kind: string, rows: Claimed[], token: string): Promise<void> {
    const now = deps.clock.now();
    const options = handlers.get(kind)?.options ?? {};
    try {
      await deps.db.transaction().execute(async (trx) => {
        const owned = await trx
          .selectFrom('jobs')
          .select('id')
          .where('id', 'in', rows.map((r) => r.id))
          .where('lease_token', '=', token)
          .orderBy('id')
          .forUpdate()
          .execute();
        const mine = new Set(owned.map((r) => Number(r.id)));
        const list = rows.filter((row) => mine.has(Number(row.id)));
        if (list.length === 0) return;
        await options.lock?.(trx, list.map((row) => ({ id: row.id, kind: row.kind, payload: row.payload, attempt: row.attempts + 1 })));
        // Each group on its own time: the service clock, or one test clock (never two in one batch).
        for (const [scope, group] of byClock(list)) {
          await withAccountClock(scope, async () => {
            if (options.batch && group.length > 1) await runMany(trx, kind, options.batch, group, now);
            else for (const row of group) await runOne(trx, row, now);
          });
        }
      });
    } catch (error) {
      // The whole transaction failed (the database went away mid-way): nothing of it stayed, and
      // the jobs are released at once rather than waiting for their lease to lapse.
      deps.logger.warn({ err: error, jobs: rows.length }, 'running claimed jobs failed; releasing them to run again');
      await deps.db
        .updateTable('jobs')
        .set({ lease_until: null, lease_token: null })
        .where('id', 'in', rows.map((r) => r.id))
        .where('lease_token', '=', token)
        .execute()
        .catch((releaseError: unknown) => {
          doubt(token);
          deps.logger.warn({ err: releaseError }, 'releasing claimed jobs failed; they are released once the database answers');
        });
    }
  }

  function doubt(token: string) {
    if (inDoubt.size >= MAX_IN_DOUBT) inDoubt.delete(inDoubt.values().next().value!);
    inDoubt.add(token);
  }

  /** Hands back the jobs of the claims in doubt (see `inDoubt`); throws while the database is away. */
  async function releaseInDoubt(): Promise<void> {
    if (inDoubt.size === 0) return;
    const tokens = [...inDoubt];
    const released = await sql`${prepared('release_jobs_in_doubt')}UPDATE jobs SET lease_until = NULL, lease_token = NULL WHERE lease_token = ANY (${tokens}::uuid[])`.execute(deps.db);
    for (const token of tokens) inDoubt.delete(token);
    if (Number(released.numAffectedRows ?? 0) > 0) {
      deps.logger.warn({ jobs: Number(released.numAffectedRows), claims: tokens.length }, 'jobs of claims whose answer was lost released to run again');
    }
  }

  /**
   * Renews the lease of step jobs while their call runs; a lease that lapsed meanwhile is not revived
   * (another worker may hold those jobs now). A failed renewal is logged: at worst the jobs run twice,
   * which the network's deduplication and the conditional recording make harmless.
   */
  function keepLeased(token: string, ids: number[]): { stop(): void } {
    const timer = setInterval(() => {
      sql`${prepared('renew_job_leases')}UPDATE jobs SET lease_until = now() + make_interval(secs => ${LEASE_SECONDS})
           WHERE id = ANY (${ids}::bigint[]) AND lease_token = ${token} AND lease_until > now()`
        .execute(deps.db)
        .catch((error: unknown) => deps.logger.warn({ err: error, jobs: ids.length }, 'renewing the lease of running step jobs failed'));
    }, RENEW_EVERY_MS);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  /** Claims and runs one batch of due jobs of every kind; answers how many it claimed. */
  async function runBatch(): Promise<number> {
    await releaseInDoubt();
    const token = randomUUID();
    let claimed: Claimed[];
    try {
      claimed = await claimDue(token);
    } catch (error) {
      // The claim may have committed though its answer was lost.
      doubt(token);
      throw error;
    }
    if (claimed.length === 0) return 0;
    const byKind = new Map<string, Claimed[]>();
    for (const row of claimed) {
      const list = byKind.get(row.kind);
      if (list) list.push(row);
      else byKind.set(row.kind, [row]);
    }
    const stepIds = claimed.filter((row) => !handlers.has(row.kind)).map((row) => Number(row.id));
    const renewal = stepIds.length > 0 ? keepLeased(token, stepIds) : undefined;
    try {
      for (const [kind, rows] of byKind) if (handlers.has(kind)) await runInTransaction(kind, rows, token);
      for (const [kind, rows] of byKind) {
        if (handlers.has(kind)) continue;
        for (const [scope, group] of byClock(rows)) await withAccountClock(scope, () => steps.runClaimed(kind, group, token));
      }
    } catch (error) {
      // Recording or handing back failed (the database went away): whatever is still leased to this
      // claim is released once the database answers.
      doubt(token);
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
    const work = Promise.all(Array.from({ length: concurrency }, loop)).then((counts) => counts.reduce((a, b) => a + b, 0));
    running = work;
    try {
      return await work;
    } finally {
      if (running === work) running = undefined;
    }
  }

  /** When the earliest pending job is due (service clock), if any. */
  async function nextDue(): Promise<Date | undefined> {
    // A step job another worker holds under its lease is not due for us until the lease lapses.
    const row = (
      // A test clock's jobs fall due only when it is advanced (which runs them), never on the service clock.
      await sql<{ next: Date | null }>`${prepared('next_due_job_1500')}SELECT min(run_at) AS next FROM jobs WHERE status = 'pending' AND clock_id IS NULL AND (lease_until IS NULL OR lease_until < now())`.execute(deps.db)
    ).rows[0];
    return row?.next ?? undefined;
  }

  /** With wake-ups: one cheap look, work only when something is due; answers the next due time. */
  async function pass(): Promise<Date | undefined> {
    await releaseInDoubt();
    const next = await nextDue();
    if (next === undefined || next > deps.clock.now()) return next;
    await runDue();
    return nextDue();
  }

  let failedPolls = 0;
  let ticking = false;
  /** Real-time ms at which the armed timer fires. */
  let armedFor = Infinity;
  /** The earliest wake-up asked for while a tick was running (real-time ms). */
  let wokenFor = Infinity;

  function arm(delayMs: number) {
    if (timer) clearTimeout(timer);
    armedFor = Date.now() + delayMs;
    // A wake-up may come while a request is served: its trace must not become the background's.
    timer = outsideRequest(() => setTimeout(tick, delayMs));
  }

  function tick() {
    if (stopped) return;
    ticking = true;
    armedFor = Infinity;
    let next: Date | undefined;
    const work = deps.safetyPollMs === undefined ? runDue().then(() => undefined) : pass();
    work
      .then((due) => {
        failedPolls = 0;
        next = due;
      })
      .catch((error) => {
        failedPolls += 1;
        deps.logger.error({ err: error, failedPolls }, 'job poll failed');
      })
      .finally(() => {
        ticking = false;
        if (stopped) return;
        // While the database is away, poll less and less often (at most every 5 s), not 5 times a second.
        if (failedPolls > 0) return arm(Math.min(5_000, pollMs * 2 ** failedPolls));
        if (deps.safetyPollMs === undefined) return arm(pollMs);
        const now = deps.clock.now().getTime();
        // Still due after the drain: other instances hold those jobs; look again soon.
        let delay = next === undefined ? deps.safetyPollMs : next.getTime() <= now ? pollMs : Math.min(deps.safetyPollMs, next.getTime() - now);
        if (wokenFor !== Infinity) delay = Math.min(delay, Math.max(0, wokenFor - Date.now()));
        wokenFor = Infinity;
        arm(delay);
      });
  }

  /**
   * A job due at `dueAt` (service clock) was committed, here or by another instance: run it then
   * instead of at the next safety poll.
   */
  function wakeAt(dueAt: Date) {
    if (stopped) return;
    const at = Date.now() + Math.max(0, dueAt.getTime() - deps.clock.now().getTime());
    if (ticking) wokenFor = Math.min(wokenFor, at);
    else if (at < armedFor) arm(Math.max(0, at - Date.now()));
  }

  /** Claimed jobs by the clock they run on (undefined: the service clock), in claim order. */
  function byClock(rows: Claimed[]): Array<[AccountClockScope | undefined, Claimed[]]> {
    const groups = new Map<string, { scope: AccountClockScope | undefined; rows: Claimed[] }>();
    for (const row of rows) {
      const key = row.clock_id && row.clock_time ? row.clock_id : '';
      const group = groups.get(key) ?? { scope: key === '' ? undefined : { clockId: key, time: new Date(row.clock_time!) }, rows: [] };
      group.rows.push(row);
      groups.set(key, group);
    }
    return [...groups.values()].map((g) => [g.scope, g.rows]);
  }

  /** Polling while nothing listens (due-wakeups.ts): look now, unless polls are failing (their backoff stands). */
  function lookSoon() {
    if (failedPolls === 0) wakeAt(new Date(0));
  }

  return {
    register,
    registerStep,
    lookSoon,
    /** Every job kind this instance runs (jobs_waiting has a series for each from the start). */
    kinds: () => [...handlers.keys(), ...steps.kinds()],
    schedule,
    scheduleMany,
    scheduleManyStatement,
    runDue,
    wakeAt,
    /** Started and not stopped: the poller is claiming due jobs (GET /ready). */
    isRunning: () => !stopped,
    start() {
      if (!stopped) return;
      stopped = false;
      arm(0);
    },
    async stop() {
      stopped = true;
      stops += 1;
      if (timer) clearTimeout(timer);
      while (running) await running.catch(() => {});
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
