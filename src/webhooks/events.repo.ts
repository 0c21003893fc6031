import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { DB, EventType } from '../db/schema.ts';

type Db = Kysely<DB> | Trx<DB>;

/**
 * An event's place in the events API's order (migration 1200): the id of the transaction that wrote
 * it (xid8 as text; '0' for events older than that migration), then its row id.
 */
export interface EventPosition {
  xact: string;
  id: number;
}

/** A stored event as the events API shows it. */
export interface StoredEvent {
  /** The public id: the `webhook-id` header every delivery of it carries (`msg_...`). */
  eventId: string;
  type: EventType;
  createdAt: Date;
  /** The exact body its webhook deliveries carry, byte for byte. */
  body: string;
  position: EventPosition;
}

/** One attempt to deliver an event (webhook_logs). */
export interface EventAttempt {
  eventRowId: number;
  kind: string;
  attempt: number | null;
  url: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  at: Date;
}

interface EventRow {
  id: number | string;
  event_id: string;
  type: EventType;
  created_at: Date | string;
  body: string;
  xact: string;
}

const toEvent = (r: EventRow): StoredEvent => ({
  eventId: r.event_id,
  type: r.type,
  createdAt: new Date(r.created_at),
  body: r.body,
  position: { xact: r.xact, id: Number(r.id) },
});

// The order key, as the index of migration 1200 has it.
const XACT = sql`COALESCE(xact_id, '0'::xid8)`;
const COLUMNS = sql`id, event_id, type, created_at, COALESCE(body, payload::text) AS body, ${XACT}::text AS xact`;

/** The events API's reads (see migration 1200 for why the order is (xact_id, id)). */
export const eventsRepo = {
  /** One of the account's events by its public id. */
  async find(db: Db, accountId: number, eventId: string): Promise<StoredEvent | undefined> {
    const rows = await sql<EventRow>`SELECT ${COLUMNS} FROM events WHERE event_id = ${eventId} AND account_id = ${accountId}`.execute(db);
    return rows.rows[0] && toEvent(rows.rows[0]);
  },

  /**
   * Up to `limit` of the account's events after `after`, in order, among those no running
   * transaction can still precede: only events whose transaction is older than the oldest one still
   * running. A reader that moves its cursor past what it got never steps over an event that commits
   * later (it will sort after the cursor).
   */
  async after(db: Db, accountId: number, input: { after: EventPosition; types?: EventType[] | undefined; limit: number }): Promise<StoredEvent[]> {
    const typeFilter = input.types && input.types.length > 0 ? sql`AND type = ANY(${input.types}::text[])` : sql``;
    const rows = await sql<EventRow>`
      SELECT ${COLUMNS} FROM events
       WHERE account_id = ${accountId}
         AND (${XACT}, id) > (${input.after.xact}::xid8, ${input.after.id}::bigint)
         AND ${XACT} < pg_snapshot_xmin(pg_current_snapshot())
         ${typeFilter}
       ORDER BY ${XACT}, id
       LIMIT ${input.limit}`.execute(db);
    return rows.rows.map(toEvent);
  },

  /** The account's latest events, newest first (the portal's Events page). */
  async latest(db: Db, accountId: number, limit: number): Promise<StoredEvent[]> {
    const rows = await sql<EventRow>`
      SELECT ${COLUMNS} FROM events WHERE account_id = ${accountId} ORDER BY ${XACT} DESC, id DESC LIMIT ${limit}`.execute(db);
    return rows.rows.map(toEvent);
  },

  /** Every attempt (relay deliveries and resends) of the given events of the account, oldest first. */
  async attemptsOf(db: Db, accountId: number, eventRowIds: number[]): Promise<EventAttempt[]> {
    if (eventRowIds.length === 0) return [];
    const rows = await sql<{ event_id: number | string; kind: string; attempt: number | null; url: string; status_code: number | null; duration_ms: number; error: string | null; created_at: Date | string }>`
      SELECT event_id, kind, attempt, url, status_code, duration_ms, error, created_at FROM webhook_logs
       WHERE account_id = ${accountId} AND event_id = ANY(${eventRowIds}::bigint[])
       ORDER BY id LIMIT 2000`.execute(db);
    return rows.rows.map((r) => ({
      eventRowId: Number(r.event_id),
      kind: r.kind,
      attempt: r.attempt,
      url: r.url,
      statusCode: r.status_code,
      durationMs: r.duration_ms,
      error: r.error,
      at: new Date(r.created_at),
    }));
  },

  /**
   * The position before every event whose transaction had not started writing yet: a live stream
   * opened now shows the events of transactions that begin after this (those in flight at this
   * instant, and all before, are the past).
   */
  async head(db: Db): Promise<EventPosition> {
    const row = (await sql<{ xmax: string }>`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax`.execute(db)).rows[0]!;
    return { xact: row.xmax, id: 0 };
  },

  /**
   * The oldest transaction still running (as text). The set of events `after` may show changes only
   * when this moves, so live streams look again only then.
   */
  async horizon(db: Db): Promise<string> {
    return (await sql<{ xmin: string }>`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`.execute(db)).rows[0]!.xmin;
  },
};

/** The start of the order: before every event. */
export const BEFORE_ALL: EventPosition = { xact: '0', id: 0 };
