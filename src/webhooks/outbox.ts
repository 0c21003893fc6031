import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction as Trx } from 'kysely';
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
 * the change it reports committed. Delivery reads these rows later.
 */
export function createOutbox(deps: { clock: Clock }) {
  async function emit(trx: Kysely<DB> | Trx<DB>, event: OutgoingEvent): Promise<{ id: number; eventId: string }> {
    const eventId = `msg_${randomUUID().replaceAll('-', '')}`;
    const row = await trx
      .insertInto('events')
      .values({
        event_id: eventId,
        account_id: event.accountId,
        type: event.type,
        transaction_id: event.transactionId,
        payload: JSON.stringify(event.payload),
        created_at: deps.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, eventId };
  }
  return { emit };
}

export type Outbox = ReturnType<typeof createOutbox>;
