import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import type { DB } from '../../db/schema.ts';
import { prepared } from '../../db/prepared.ts';

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
  /** The window this hit was counted in (for `giveBack`). */
  windowStart: Date;
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
    return { allowed: row.hits <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - row.hits), resetSeconds, windowStart: start };
  }
  /** The current window's count without counting this call (for limits on failures only). */
  async function peek(bucket: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const now = deps.clock.now().getTime();
    const windowMs = rule.windowSeconds * 1000;
    const start = new Date(Math.floor(now / windowMs) * windowMs);
    const row = await deps.db
      .selectFrom('rate_limit_windows')
      .select('hits')
      .where('bucket', '=', bucket)
      .where('window_start', '=', start)
      .executeTakeFirst();
    const hits = row?.hits ?? 0;
    const resetSeconds = Math.max(1, Math.ceil((start.getTime() + windowMs - now) / 1000));
    return { allowed: hits < rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - hits), resetSeconds, windowStart: start };
  }

  /** `hit` for several buckets at once: one upsert counts them all (one round trip). */
  async function hitMany(hits: Array<{ bucket: string; rule: RateLimitRule }>): Promise<RateLimitDecision[]> {
    const now = deps.clock.now().getTime();
    const windows = hits.map(({ bucket, rule }) => {
      const windowMs = rule.windowSeconds * 1000;
      return { bucket, rule, windowMs, start: new Date(Math.floor(now / windowMs) * windowMs) };
    });
    const rows = await sql<{ bucket: string; hits: number }>`
      ${prepared('rate_limit_hit_many')}INSERT INTO rate_limit_windows (bucket, window_start, hits)
      SELECT bucket, window_start, 1 FROM jsonb_to_recordset(${JSON.stringify(windows.map((w) => ({ bucket: w.bucket, window_start: w.start.toISOString() })))}::jsonb)
        AS x (bucket text, window_start timestamptz)
      ORDER BY bucket, window_start
      ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
      RETURNING bucket, hits`.execute(deps.db);
    const counts = new Map(rows.rows.map((r) => [r.bucket, Number(r.hits)]));
    // The first hit of a window clears that bucket's older windows, so the table stays small.
    const fresh = windows.filter((w) => counts.get(w.bucket) === 1);
    for (const w of fresh) await deps.db.deleteFrom('rate_limit_windows').where('bucket', '=', w.bucket).where('window_start', '<', w.start).execute();
    return windows.map((w) => {
      const count = counts.get(w.bucket) ?? 1;
      const resetSeconds = Math.max(1, Math.ceil((w.start.getTime() + w.windowMs - now) / 1000));
      return { allowed: count <= w.rule.limit, limit: w.rule.limit, remaining: Math.max(0, w.rule.limit - count), resetSeconds, windowStart: w.start };
    });
  }

  /** Uncounts one hit of each given window (attempts that turned out not to count, e.g. a right secret), in one statement. */
  async function giveBack(counted: Array<{ bucket: string; windowStart: Date }>): Promise<void> {
    if (counted.length === 0) return;
    // Rows locked in the order hitMany takes them (bucket, window), so a give-back and a concurrent
    // count of the same buckets can never deadlock.
    await sql`
      ${prepared('rate_limit_give_back')}WITH x AS (
        SELECT bucket, window_start FROM jsonb_to_recordset(${JSON.stringify(counted.map((c) => ({ bucket: c.bucket, window_start: c.windowStart.toISOString() })))}::jsonb)
          AS x (bucket text, window_start timestamptz)
      ), locked AS (
        SELECT w.bucket, w.window_start FROM rate_limit_windows w JOIN x USING (bucket, window_start)
         ORDER BY w.bucket, w.window_start FOR UPDATE OF w
      )
      UPDATE rate_limit_windows w SET hits = greatest(w.hits - 1, 0)
        FROM locked WHERE w.bucket = locked.bucket AND w.window_start = locked.window_start`.execute(deps.db);
  }
  return { hit, hitMany, peek, giveBack };
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
