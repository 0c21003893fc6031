import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { Clock } from '../domain/clock.ts';
import type { DB, EventType } from '../db/schema.ts';

export interface OutgoingEvent {
  accountId: number;
  type: EventType;
  transactionId: number | null;
  /** The exact JSON body the receivers get. */
  payload: Record<string, unknown>;
}

/**
 * `emit` records an outgoing event in the caller's transaction, so an event exists if and only if
 * the change it reports committed. In the same transaction it fans the event out: one delivery row
 * per active URL of the account registered for the event's type, due now. The relay sends them.
 */
export function createOutbox(deps: { clock: Clock }) {
  async function emit(trx: Kysely<DB> | Trx<DB>, event: OutgoingEvent): Promise<{ id: number; eventId: string }> {
    const eventId = `msg_${randomUUID().replaceAll('-', '')}`;
    const now = deps.clock.now();
    const body = JSON.stringify(event.payload);
    const row = await trx
      .insertInto('events')
      .values({
        event_id: eventId,
        account_id: event.accountId,
        type: event.type,
        transaction_id: event.transactionId,
        payload: body,
        body,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`
      INSERT INTO webhook_deliveries (event_id, webhook_id, account_id, next_attempt_at, created_at, updated_at)
      SELECT ${row.id}, w.id, w.account_id, ${now}, ${now}, ${now}
        FROM webhooks w
       WHERE w.account_id = ${event.accountId} AND w.event_type = ${event.type}
         AND w.is_active AND w.deleted_at IS NULL
       ORDER BY w.id`.execute(trx);
    return { id: row.id, eventId };
  }
  return { emit };
}

export type Outbox = ReturnType<typeof createOutbox>;
