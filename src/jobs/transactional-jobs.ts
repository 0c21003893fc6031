import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.ts';
import { isRetryableConflict } from '../db/db-faults.ts';
import type { DB } from '../db/schema.ts';
import type { Metrics } from '../metrics.ts';
import { traceFrom, withTrace } from '../observability/trace-context.ts';
import type { BatchJobHandler, JobKinds } from './job-kinds.ts';
import type { JobLeases } from './job-leases.ts';
import type { Job } from './job.ts';
import { claimedNow, type Claimed } from './steps.ts';
import { byClock } from './job-clocks.ts';
import { withAccountClock } from '../services/test-clocks/account-time.ts';

const defaultBackoff = (attempt: number) => Math.min(3600, 5 * 2 ** (attempt - 1));

const jobOf = (row: Claimed): Job => ({ id: row.id, kind: row.kind, payload: row.payload, attempt: row.attempts + 1 });

/**
 * Runs claimed jobs of transactional kinds: one transaction per kind, each job in a savepoint, so a
 * job's effects and its deletion commit at once; a failed job is retried later or given up.
 */
export function createTransactionalJobs(deps: { db: Kysely<DB>; clock: Clock; logger: Logger; metrics?: Metrics; kinds: JobKinds; leases: JobLeases }) {
  /** A failed job back to pending (or given up), its error kept. */
  async function recordFailure(trx: Trx<DB>, row: Claimed, now: Date, error: unknown): Promise<void> {
    const attempt = row.attempts + 1;
    // A deadlock or serialization abort says nothing about the job: it is retried without using
    // up an attempt, so contention alone can never leave a payment PENDING with its money held.
    const conflict = isRetryableConflict(error);
    const counted = conflict ? row.attempts : attempt;
    const failed = !conflict && attempt >= row.max_attempts;
    const delay = (deps.kinds.transactional(row.kind)?.options.backoff ?? defaultBackoff)(attempt);
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
  }

  /** One job alone, in its savepoint: done (deleted) or failed (retried later, or given up). */
  async function runOne(trx: Trx<DB>, row: Claimed, serviceNow: Date): Promise<void> {
    const now = claimedNow(row, serviceNow);
    const entry = deps.kinds.transactional(row.kind);
    await sql`SAVEPOINT job`.execute(trx);
    const started = performance.now();
    try {
      if (!entry) throw new Error(`no handler for job kind "${row.kind}"`);
      // In the trace of the request that caused it: its calls, follow-up jobs and events carry it.
      await withTrace(traceFrom(row.payload.trace), () => entry.handler(trx, jobOf(row)));
      await sql`RELEASE SAVEPOINT job`.execute(trx);
      await trx.deleteFrom('jobs').where('id', '=', row.id).execute();
      deps.metrics?.jobs.inc({ kind: row.kind, outcome: 'done' });
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT job`.execute(trx);
      await recordFailure(trx, row, now, error);
    } finally {
      deps.metrics?.jobDuration.observe({ kind: row.kind }, (performance.now() - started) / 1000);
    }
  }

  /** Many jobs of a kind with a batch handler; on any error, each one alone. */
  async function runMany(trx: Trx<DB>, kind: string, batch: BatchJobHandler, rows: Claimed[], now: Date): Promise<void> {
    await sql`SAVEPOINT jobs`.execute(trx);
    const started = performance.now();
    try {
      await batch(trx, rows.map(jobOf));
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
   * The claimed transactional jobs of one kind, in one transaction: the rows still under our lease
   * are locked first (a claim taken over after its lease lapsed is not ours any more), then the
   * kind's `lock` takes every lock its jobs need, then they run (as a batch when they can) and each
   * job's effects commit with its removal. One transaction per kind: two kinds in one transaction
   * would take their rows (charges, accounts) in an order no other path follows.
   */
  async function runInTransaction(kind: string, rows: Claimed[], token: string): Promise<void> {
    const now = deps.clock.now();
    const options = deps.kinds.transactional(kind)?.options ?? {};
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
        await options.lock?.(trx, list.map(jobOf));
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
      await deps.leases.release(rows.map((r) => r.id), token);
    }
  }

  return { runInTransaction };
}
