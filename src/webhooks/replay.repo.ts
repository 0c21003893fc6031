import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { DB, EventType } from '../db/schema.ts';

type Db = Kysely<DB> | Trx<DB>;

import type { ReplayStatus } from '../domain/closed-lists.ts';
export type { ReplayStatus };

/**
 * Queues the account's deliveries again (POST /api/webhook-deliveries/replay): for each (event, URL)
 * of the account's events created at or after `since` (of `type`, when given) whose latest delivery
 * finished (`failed` for good, or any finished one with `all`) and whose URL is still active, one new
 * delivery row, due now. The relay sends it like any other (signed, retried, logged); its
 * `webhook-id` is the event's, so receivers that already processed it can tell. A pair with a
 * delivery still pending is left alone (it is being sent), so replaying twice queues once. The
 * insert wakes the relays (the trigger of migration 680). Answers how many were queued.
 */
export async function queueReplay(db: Db, input: { accountId: number; since: Date; status: ReplayStatus; type?: EventType | undefined; now: Date }): Promise<number> {
  const typeFilter = input.type ? sql`AND e.type = ${input.type}` : sql``;
  const statusFilter = input.status === 'failed' ? sql`AND l.status = 'failed'` : sql`AND l.status <> 'pending'`;
  const result = await sql<{ id: number }>`
    WITH latest AS (
      SELECT DISTINCT ON (d.event_id, d.webhook_id) d.event_id, d.webhook_id, d.status
        FROM events e
        JOIN webhook_deliveries d ON d.event_id = e.id
       WHERE e.account_id = ${input.accountId} AND e.created_at >= ${input.since} ${typeFilter}
       ORDER BY d.event_id, d.webhook_id, d.id DESC
    )
    INSERT INTO webhook_deliveries (event_id, webhook_id, account_id, next_attempt_at, created_at, updated_at)
    SELECT l.event_id, l.webhook_id, ${input.accountId}, ${input.now}::timestamptz, ${input.now}::timestamptz, ${input.now}::timestamptz
      FROM latest l
      JOIN webhooks w ON w.id = l.webhook_id AND w.is_active AND w.deleted_at IS NULL
     WHERE true ${statusFilter}
     ORDER BY l.event_id, l.webhook_id
    RETURNING id`.execute(db);
  return result.rows.length;
}
