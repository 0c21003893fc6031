import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { Clock } from '../domain/clock.ts';
import type { DB, EventType } from '../db/schema.ts';
import { prepared } from '../db/prepared.ts';
import { currentTrace, newTraceId } from '../observability/trace-context.ts';

export interface OutgoingEvent {
  accountId: number;
  type: EventType;
  transactionId: number | null;
  /** The exact JSON body the receivers get. */
  payload: Record<string, unknown>;
  /**
   * The W3C trace its deliveries carry. Default: the trace of the request being served when it came
   * with a `traceparent`, else a new one (every attempt of the event then shares it).
   */
  traceId?: string;
}

/**
 * The outbox records outgoing events in the caller's transaction, so an event exists if and only if
 * the change it reports committed, and fans each out in the same statement: one delivery row per
 * active URL of the account registered for the event's type, due now. The relay sends them.
 * `emitMany` writes a whole batch's events and deliveries in ONE statement. The body is stored once,
 * as json (migration 1000): that type keeps the text as written, which is what receivers get and
 * signatures cover.
 */
export function createOutbox(deps: { clock: Clock }) {
  async function emitMany(trx: Kysely<DB> | Trx<DB>, events: OutgoingEvent[]): Promise<Array<{ id: number; eventId: string }>> {
    if (events.length === 0) return [];
    const now = deps.clock.now();
    const requestTrace = currentTrace()?.traceId;
    const rows = events.map((event, ord) => ({
      ord,
      event_id: `msg_${randomUUID().replaceAll('-', '')}`,
      account_id: event.accountId,
      type: event.type,
      transaction_id: event.transactionId,
      body: JSON.stringify(event.payload),
      trace_id: event.traceId ?? requestTrace ?? newTraceId(),
    }));
    const written = await sql<{ id: number; event_id: string }>`
      ${prepared('emit_events')}WITH input AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS x (ord int, event_id text, account_id bigint, type text, transaction_id bigint, body text, trace_id text)),
      added AS (
        INSERT INTO events (event_id, account_id, type, transaction_id, payload, trace_id, created_at)
        SELECT event_id, account_id, type, transaction_id, body::json, trace_id, ${now}::timestamptz FROM input ORDER BY ord
        RETURNING id, event_id, account_id, type),
      fanned AS (
        INSERT INTO webhook_deliveries (event_id, webhook_id, account_id, next_attempt_at, created_at, updated_at)
        SELECT added.id, w.id, w.account_id, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
          FROM added
          JOIN webhooks w ON w.account_id = added.account_id AND w.event_type = added.type AND w.is_active AND w.deleted_at IS NULL
         ORDER BY added.id, w.id)
      SELECT id, event_id FROM added`.execute(trx);
    const byEventId = new Map(written.rows.map((r) => [r.event_id, Number(r.id)]));
    return rows.map((r) => ({ id: byEventId.get(r.event_id)!, eventId: r.event_id }));
  }

  async function emit(trx: Kysely<DB> | Trx<DB>, event: OutgoingEvent): Promise<{ id: number; eventId: string }> {
    return (await emitMany(trx, [event]))[0]!;
  }

  return { emit, emitMany };
}

export type Outbox = ReturnType<typeof createOutbox>;
