import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

export const RESEND_LIMIT_PER_MINUTE = 60;
const WINDOW_MS = 60_000;

export interface RateLimitState {
  allowed: boolean;
  /** RateLimit-* headers (and Retry-After when refused), for every answer of the route. */
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

/**
 * Decisions 4.16: at most 60 resends a minute per account, in fixed one-minute windows kept in the
 * database, so every instance on one PostgreSQL counts the same requests. One upsert counts and
 * reads at once: concurrent requests cannot both take the 60th slot.
 */
export async function takeResendSlot(db: Kysely<DB>, accountId: number, now: Date): Promise<RateLimitState> {
  const windowStart = new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS);
  const row = await sql<{ count: number }>`
    INSERT INTO webhook_resend_windows AS w (account_id, window_start, count)
    VALUES (${accountId}, ${windowStart}, 1)
    ON CONFLICT (account_id) DO UPDATE
       SET count = CASE WHEN w.window_start = EXCLUDED.window_start THEN w.count + 1 ELSE 1 END,
           window_start = EXCLUDED.window_start
    RETURNING count`.execute(db);
  const count = row.rows[0]!.count;
  const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now.getTime()) / 1000));
  const allowed = count <= RESEND_LIMIT_PER_MINUTE;
  const headers: Record<string, string> = {
    'ratelimit-limit': String(RESEND_LIMIT_PER_MINUTE),
    'ratelimit-remaining': String(Math.max(0, RESEND_LIMIT_PER_MINUTE - count)),
    'ratelimit-reset': String(resetSeconds),
    'ratelimit-policy': `${RESEND_LIMIT_PER_MINUTE};w=60`,
  };
  if (!allowed) headers['retry-after'] = String(resetSeconds);
  return { allowed, headers, retryAfterSeconds: resetSeconds };
}
