import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { Clock } from '../domain/clock.ts';
import type { DB } from '../db/schema.ts';
import { currentTrace } from '../observability/trace-context.ts';
import { currentAccountClock } from '../services/test-clocks/account-time.ts';

/**
 * A job scheduled while a traced request (or a job running in a trace) is served keeps that trace in
 * its payload (`trace`), unless the payload names its own (issue 31 item 4).
 */
function withCurrentTrace(payload: Record<string, unknown>): Record<string, unknown> {
  if (payload.trace !== undefined) return payload;
  const trace = currentTrace();
  return trace ? { ...payload, trace } : payload;
}

/** Writing jobs: one row, or many of one kind, in the caller's transaction. */
export function createJobInserts(deps: { clock: Clock; maxAttemptsOf: (kind: string) => number }) {
  async function schedule(trx: Kysely<DB> | Trx<DB>, kind: string, runAt: Date, payload: Record<string, unknown> = {}): Promise<number> {
    const now = deps.clock.now();
    const row = await trx
      .insertInto('jobs')
      .values({
        kind,
        run_at: runAt,
        payload: JSON.stringify(withCurrentTrace(payload)),
        max_attempts: deps.maxAttemptsOf(kind),
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
    const maxAttempts = deps.maxAttemptsOf(kind);
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
  async function scheduleMany(trx: Kysely<DB> | Trx<DB>, kind: string, jobs: Array<{ runAt: Date; payload: Record<string, unknown> }>): Promise<void> {
    if (jobs.length === 0) return;
    await scheduleManyStatement(kind, jobs).execute(trx);
  }

  return { schedule, scheduleMany, scheduleManyStatement };
}
