import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import type { DB } from '../../db/schema.ts';

export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends (the Retry-After when refused). */
  resetSeconds: number;
}

/**
 * Fixed-window counters in the database, so every instance on one PostgreSQL shares them: one
 * upsert per request counts it and answers the window's total atomically (no read-then-write).
 * Buckets are free text: `med-list:<accountId>`, `resend:<accountId>`, ...
 */
export function createRateLimiter(deps: { db: Kysely<DB>; clock: Clock }) {
  async function hit(bucket: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const now = deps.clock.now().getTime();
    const windowMs = rule.windowSeconds * 1000;
    const start = new Date(Math.floor(now / windowMs) * windowMs);
    const row = await deps.db
      .insertInto('rate_limit_windows')
      .values({ bucket, window_start: start, hits: 1 })
      .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ hits: sql`rate_limit_windows.hits + 1` }))
      .returning('hits')
      .executeTakeFirstOrThrow();
    // The first hit of a window clears that bucket's older windows, so the table stays small.
    if (row.hits === 1) await deps.db.deleteFrom('rate_limit_windows').where('bucket', '=', bucket).where('window_start', '<', start).execute();
    const resetSeconds = Math.max(1, Math.ceil((start.getTime() + windowMs - now) / 1000));
    return { allowed: row.hits <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - row.hits), resetSeconds };
  }
  return { hit };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The IETF RateLimit-* headers (draft-ietf-httpapi-ratelimit-headers) of a decision, plus Retry-After when refused. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
    ...(decision.allowed ? {} : { 'retry-after': String(decision.resetSeconds) }),
  };
}
