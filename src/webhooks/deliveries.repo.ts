import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { AttemptKind } from '../domain/closed-lists.ts';
import type { DB, EventType } from '../db/schema.ts';
import type { DeliveryStatus, WebhookHeader } from '../db/schema/webhooks.ts';
import type { StoredSigningSecrets } from './signing-secrets.ts';

type Db = Kysely<DB> | Trx<DB>;

/** A delivery claimed by one relay, with everything needed to send it. */
export interface ClaimedDelivery {
  id: number;
  claimToken: string;
  /** The number of the attempt about to be made (1-based). */
  attempt: number;
  accountId: number;
  eventRowId: number;
  webhookId: number;
  /** The event's public id: the `webhook-id` header, the same on every attempt. */
  messageId: string;
  body: string;
  url: string;
  headers: WebhookHeader[];
  /** False when the registration was disabled or deleted after the event fanned out. */
  active: boolean;
  /** The account's signing secrets (null before its first one is made); see signing-secrets.ts. */
  secrets: StoredSigningSecrets | null;
  /** The event's W3C trace id (null on events older than migration 983). */
  traceId: string | null;
  /** The time of the test clock its account is on (migration 1500); absent: the service clock. */
  clockTime?: Date;
}

export interface DeliveryResult {
  id: number;
  claimToken: string;
  status: DeliveryStatus;
  /** Attempts made so far, this one included. */
  attempts: number;
  nextAttemptAt: Date;
  statusCode: number | null;
  error: string | null;
  deliveredAt: Date | null;
}

export interface AttemptLog {
  accountId: number;
  eventRowId: number | null;
  deliveryId: number | null;
  webhookId: number | null;
  kind: AttemptKind;
  /** Test deliveries only: the event type they imitate (they belong to no stored event). */
  eventType?: EventType | null;
  attempt: number | null;
  url: string;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  at: Date;
}

/** SQL of the relay: claim due deliveries under a lease, write results, log attempts. */
export const deliveriesRepo = {
  /**
   * Claims up to `limit` due deliveries in one statement (its own short transaction): locked rows
   * are skipped, so concurrent relays take disjoint sets, and each claimed row is leased, so no relay
   * takes it while this one holds it. A relay that dies before writing the result leaves the row
   * due again once the lease ends: delivered at least once.
   *
   * Due is business time (`now`, the service clock, which the sandbox moves); the lease is liveness,
   * measured on the database server's real clock, shared by every relay and never moved by the sandbox.
   */
  /** When the earliest pending delivery (or the lease of a claimed one) falls due, if any. */
  async nextDue(db: Db): Promise<Date | undefined> {
    const row = (await sql<{ next: Date | null }>`SELECT min(next_attempt_at) AS next FROM webhook_deliveries d WHERE status = 'pending'
      AND NOT EXISTS (SELECT 1 FROM test_clock_accounts t WHERE t.account_id = d.account_id)`.execute(db)).rows[0];
    return row?.next ?? undefined;
  },

  async claim(db: Db, input: { now: Date; leaseSeconds: number; token: string; limit: number }): Promise<ClaimedDelivery[]> {
    const result = await sql<{
      id: number;
      attempts: number;
      account_id: number;
      event_id: number;
      webhook_id: number;
      message_id: string;
      body: string;
      url: string;
      headers: WebhookHeader[] | string;
      active: boolean;
      secret: string | null;
      previous_secret: string | null;
      previous_valid_until: Date | string | null;
      trace_id: string | null;
      clock_time: Date | string | null;
    }>`
      WITH on_service AS (
        SELECT id FROM webhook_deliveries d
         WHERE status = 'pending' AND next_attempt_at <= ${input.now}
           AND (lease_until IS NULL OR lease_until <= clock_timestamp())
           AND NOT EXISTS (SELECT 1 FROM test_clock_accounts t WHERE t.account_id = d.account_id)
         ORDER BY next_attempt_at, id
         LIMIT ${input.limit}
         FOR UPDATE SKIP LOCKED
      ), on_clocks AS (
        -- The deliveries of accounts on a test clock fall due on that clock (migration 1500).
        SELECT d.id FROM webhook_deliveries d
          JOIN test_clock_accounts t ON t.account_id = d.account_id
          JOIN test_clocks c ON c.id = t.clock_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= c.frozen_time
           AND (d.lease_until IS NULL OR d.lease_until <= clock_timestamp())
         ORDER BY d.next_attempt_at, d.id
         LIMIT ${input.limit}
         FOR UPDATE OF d SKIP LOCKED
      ), due AS (
        SELECT id FROM on_service UNION ALL SELECT id FROM on_clocks
      ), claimed AS (
        UPDATE webhook_deliveries d
           SET lease_until = clock_timestamp() + make_interval(secs => ${input.leaseSeconds}::double precision), claim_token = ${input.token}::uuid
          FROM due WHERE d.id = due.id
        RETURNING d.id, d.attempts, d.account_id, d.event_id, d.webhook_id
      )
      SELECT c.id, c.attempts, c.account_id, c.event_id, c.webhook_id,
             e.event_id AS message_id, COALESCE(e.body, e.payload::text) AS body,
             w.url, w.headers, (w.is_active AND w.deleted_at IS NULL) AS active,
             s.secret, s.previous_secret, s.previous_valid_until, e.trace_id,
             (SELECT tc.frozen_time FROM test_clock_accounts ta JOIN test_clocks tc ON tc.id = ta.clock_id WHERE ta.account_id = c.account_id) AS clock_time
        FROM claimed c
        JOIN events e ON e.id = c.event_id
        JOIN webhooks w ON w.id = c.webhook_id
        LEFT JOIN webhook_secrets s ON s.account_id = c.account_id
       ORDER BY c.id`.execute(db);
    return result.rows.map((r) => ({
      id: Number(r.id),
      claimToken: input.token,
      attempt: r.attempts + 1,
      accountId: Number(r.account_id),
      eventRowId: Number(r.event_id),
      webhookId: Number(r.webhook_id),
      messageId: r.message_id,
      body: r.body,
      url: r.url,
      headers: typeof r.headers === 'string' ? (JSON.parse(r.headers) as WebhookHeader[]) : r.headers,
      active: r.active,
      secrets: r.secret === null ? null : { secret: r.secret, previous_secret: r.previous_secret, previous_valid_until: r.previous_valid_until },
      traceId: r.trace_id,
      ...(r.clock_time === null ? {} : { clockTime: new Date(r.clock_time) }),
    }));
  },

  /**
   * Writes the outcome of claimed deliveries, each only while its claim still holds (a relay whose
   * lease ran out and was overtaken changes nothing).
   */
  async writeResults(db: Db, results: DeliveryResult[], now: Date): Promise<number> {
    if (results.length === 0) return 0;
    const rows = results.map(
      (r) =>
        sql`(${r.id}::bigint, ${r.claimToken}::uuid, ${r.status}::text, ${r.attempts}::int, ${r.nextAttemptAt}::timestamptz,
             ${r.statusCode}::int, ${r.error}::text, ${r.deliveredAt}::timestamptz)`,
    );
    const updated = await sql`
      UPDATE webhook_deliveries d
         SET status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at,
             last_status_code = v.status_code, last_error = v.error, delivered_at = v.delivered_at,
             claim_token = NULL, lease_until = NULL, updated_at = ${now}
        FROM (VALUES ${sql.join(rows)}) AS v(id, claim_token, status, attempts, next_attempt_at, status_code, error, delivered_at)
       WHERE d.id = v.id AND d.claim_token = v.claim_token`.execute(db);
    return Number(updated.numAffectedRows ?? 0);
  },

  async insertLogs(db: Db, logs: AttemptLog[]): Promise<number[]> {
    if (logs.length === 0) return [];
    const rows = await db
      .insertInto('webhook_logs')
      .values(
        logs.map((l) => ({
          account_id: l.accountId,
          event_id: l.eventRowId,
          delivery_id: l.deliveryId,
          webhook_id: l.webhookId,
          kind: l.kind,
          event_type: l.eventType ?? null,
          attempt: l.attempt,
          url: l.url,
          status_code: l.statusCode,
          duration_ms: l.durationMs,
          response_excerpt: l.responseExcerpt,
          error: l.error,
          created_at: l.at,
        })),
      )
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  },
};
