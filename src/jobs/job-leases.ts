import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.ts';
import type { DB } from '../db/schema.ts';
import { prepared } from '../db/prepared.ts';
import { fn } from '../db/function-sources.ts';
import type { Claimed } from './steps.ts';

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
 * The leases of claimed jobs: the claim itself, its renewal while step calls run, the next due time,
 * and the claims in doubt.
 */
export function createJobLeases(deps: { db: Kysely<DB>; clock: Clock; logger: Logger; batchSize: number; kinds: () => string[] }) {
  /**
   * Lease tokens of claims this instance gave up on while the database was failing: the claim may
   * have committed though its answer was lost (the connection reset as it committed), or its jobs
   * could not be handed back. Released as soon as the database answers again, so those jobs run
   * again at once instead of when their lease lapses.
   */
  const inDoubt = new Set<string>();

  /**
   * Claims due jobs of every kind this instance knows, in ONE statement that commits a lease on
   * them (an idle pass costs just that statement). Due time is business time (the service clock);
   * the lease is liveness, on the database server's real clock.
   */
  async function claimDue(token: string): Promise<Claimed[]> {
    const now = deps.clock.now();
    const kinds = deps.kinds();
    if (kinds.length === 0) return [];
    // One statement; claim_due_jobs.sql says why it is a function (the plan it must keep).
    const rows = await sql<Claimed>`${prepared('claim_due_jobs')}SELECT * FROM ${fn('claim_due_jobs')}(${now}::timestamptz, ${kinds}::text[], ${deps.batchSize}::int, ${LEASE_SECONDS}::int, ${token}::uuid)`.execute(deps.db);
    return rows.rows.sort((a, b) => Number(a.id) - Number(b.id));
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

  /** Hands back the jobs still leased under `token` (the transaction that ran them failed); if that fails too, the claim is in doubt. */
  async function release(ids: number[], token: string): Promise<void> {
    await deps.db
      .updateTable('jobs')
      .set({ lease_until: null, lease_token: null })
      .where('id', 'in', ids)
      .where('lease_token', '=', token)
      .execute()
      .catch((releaseError: unknown) => {
        doubt(token);
        deps.logger.warn({ err: releaseError }, 'releasing claimed jobs failed; they are released once the database answers');
      });
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

  /** When the earliest pending job is due (service clock), if any. */
  async function nextDue(): Promise<Date | undefined> {
    // A step job another worker holds under its lease is not due for us until the lease lapses.
    // A test clock's jobs fall due only when it is advanced (which runs them), never on the service clock.
    const row = (await sql<{ next: Date | null }>`${prepared('next_due_job')}SELECT ${fn('next_due_job')}() AS next`.execute(deps.db)).rows[0];
    return row?.next ?? undefined;
  }

  return { claimDue, doubt, releaseInDoubt, release, keepLeased, nextDue };
}

export type JobLeases = ReturnType<typeof createJobLeases>;
