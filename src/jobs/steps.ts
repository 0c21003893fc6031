import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import { prepared } from '../db/prepared.ts';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.ts';
import { transact } from '../db/transact.ts';
import type { DB } from '../db/schema.ts';
import type { Metrics } from '../metrics.ts';
import type { Job } from './job.ts';
import { traceFrom, withTrace } from '../observability/trace-context.ts';

/**
 * A job that talks to the outside world (a payment network): `call` runs with NO database
 * transaction open, then `record` writes what it answered and the jobs' removal in one short
 * transaction. A crash between the two leaves the job to run again once its lease lapses, so
 * `call` must be safe to repeat (the network deduplicates by our reference) and `record` must be
 * conditional (a finished payment changes nothing).
 */
export interface StepHandler<P = any, A = any> {
  /** One answer per job, in order; a failure of one job is an answer (e.g. "unknown"), not a throw. */
  call(jobs: Array<Job<P>>): Promise<A[]>;
  record(trx: Trx<DB>, done: Array<{ job: Job<P>; answer: A }>): Promise<void>;
  maxAttempts?: number;
  /** Seconds before the given (1-based) retry after a failure. */
  backoff?: (attempt: number) => number;
}

/** A jobs row as the scheduler's claim answers it. */
export type Claimed = {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  /** The test clock whose time made it due (migration 1500), and that time; null: the service clock. */
  clock_id?: string | null;
  clock_time?: Date | string | null;
};

/** The time a claimed job runs at: its test clock's, else the service clock's `now`. */
export const claimedNow = (row: Claimed, now: Date): Date => (row.clock_time ? new Date(row.clock_time) : now);

const defaultBackoff = (attempt: number) => Math.min(300, 2 ** attempt);

/**
 * The call-record half of step jobs, over the same `jobs` table as the scheduler's transactional
 * jobs: the scheduler claims due jobs of every kind under a lease (one statement), and hands the
 * step kinds here.
 */
export function createStepRunner(deps: { db: Kysely<DB>; clock: Clock; logger: Logger; metrics?: Metrics }) {
  const handlers = new Map<string, StepHandler>();

  function register<P, A>(kind: string, handler: StepHandler<P, A>) {
    if (handlers.has(kind)) throw new Error(`step kind ${kind} registered twice`);
    handlers.set(kind, handler);
  }

  /** The jobs failed this attempt: back to pending later (the lease dropped), or given up. */
  async function fail(kind: string, handler: StepHandler, rows: Claimed[], token: string, error: unknown): Promise<void> {
    const serviceNow = deps.clock.now();
    for (const row of rows) {
      const now = claimedNow(row, serviceNow);
      const attempt = row.attempts + 1;
      const failed = attempt >= row.max_attempts;
      const delay = (handler.backoff ?? defaultBackoff)(attempt);
      await deps.db
        .updateTable('jobs')
        .set({
          attempts: attempt,
          status: failed ? 'failed' : 'pending',
          run_at: new Date(now.getTime() + delay * 1000),
          lease_until: null,
          lease_token: null,
          last_error: String((error as Error)?.stack ?? error).slice(0, 2000),
          updated_at: now,
        })
        .where('id', '=', row.id)
        .where('lease_token', '=', token)
        .execute();
      deps.metrics?.jobs.inc({ kind, outcome: failed ? 'failed' : 'retry' });
      if (failed) deps.logger.error({ err: error, jobId: row.id, kind, attempt, payload: row.payload }, 'job gave up after its last attempt; its work needs an operator');
      else deps.logger.warn({ err: error, jobId: row.id, kind, attempt }, 'job failed; it will run again');
    }
  }

  /** Records answers and removes the jobs still ours, in one transaction. */
  async function commit(handler: StepHandler, entries: Array<{ row: Claimed; job: Job; answer: unknown }>, token: string): Promise<void> {
    await transact(deps.db, async (trx) => {
      const mine = (
        await sql<{ id: number }>`${prepared('delete_leased_jobs')}DELETE FROM jobs WHERE id = ANY (${entries.map((e) => e.row.id)}::bigint[]) AND lease_token = ${token} RETURNING id`.execute(trx)
      ).rows;
      const kept = new Set(mine.map((r) => Number(r.id)));
      // A claim taken over after its lease lapsed belongs to the other worker now: it records.
      const done = entries.filter((e) => kept.has(Number(e.row.id)));
      if (done.length > 0) await handler.record(trx, done.map(({ job, answer }) => ({ job, answer })));
    });
  }

  /** Jobs of one kind claimed under `token` (by the scheduler's claim): call, then record. */
  async function runClaimed(kind: string, rows: Claimed[], token: string): Promise<void> {
    const handler = handlers.get(kind);
    if (!handler) throw new Error(`no step handler for job kind "${kind}"`);
    const started = performance.now();
    const jobs: Job[] = rows.map((row) => ({ id: Number(row.id), kind: row.kind, payload: row.payload, attempt: row.attempts + 1 }));
    // Jobs of one trace (a batch of one, most often) run in it; a batch of several traces carries
    // each job's own where the handler calls per job (payment orders carry theirs).
    const traces = new Set(jobs.map((job) => traceFrom(job.payload.trace)?.traceId));
    const shared = traces.size === 1 ? traceFrom(jobs[0]!.payload.trace) : undefined;
    let answers: unknown[];
    try {
      answers = await withTrace(shared, () => handler.call(jobs));
      if (answers.length !== jobs.length) throw new Error(`step ${kind}: ${answers.length} answers for ${jobs.length} jobs`);
    } catch (error) {
      await fail(kind, handler, rows, token, error);
      return;
    }
    const entries = rows.map((row, i) => ({ row, job: jobs[i]!, answer: answers[i] }));
    try {
      await withTrace(shared, () => commit(handler, entries, token));
      deps.metrics?.jobs.inc({ kind, outcome: 'done' }, rows.length);
    } catch (batchError) {
      // Never silent: the cause is logged, then each job is recorded alone so one bad answer cannot hold back the rest.
      deps.logger.warn({ err: batchError, kind, jobs: entries.length }, 'recording step answers failed; recording each job alone');
      for (const entry of entries) {
        try {
          await withTrace(traceFrom(entry.job.payload.trace), () => commit(handler, [entry], token));
          deps.metrics?.jobs.inc({ kind, outcome: 'done' });
        } catch (error) {
          await fail(kind, handler, [entry.row], token, error);
        }
      }
    }
    deps.metrics?.jobDuration.observe({ kind }, (performance.now() - started) / 1000 / rows.length);
  }

  return {
    register,
    runClaimed,
    kinds: () => [...handlers.keys()],
    maxAttemptsOf: (kind: string) => handlers.get(kind)?.maxAttempts,
  };
}

export type StepRunner = ReturnType<typeof createStepRunner>;
