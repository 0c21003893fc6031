import { Type } from '@sinclair/typebox';
import { REPLAY_STATUSES } from '../../domain/closed-lists.ts';
import { OneOf } from './one-of.ts';
import type { StoredEvent } from '../../webhooks/events.repo.ts';
import type { EventPage } from '../../services/events/event-log.service.ts';
import { EVENT_PAGE_DEFAULT, EVENT_PAGE_MAX } from '../../services/events/event-log.service.ts';
import { EventTypeSchema, EVENT_TYPES } from '../../webhooks/http-schemas.ts';

/** Schemas of the events API (issue 29), shared by the public and admin routes. */

export const EventView = Type.Object({
  id: Type.String({ description: 'the event id: the `webhook-id` header every delivery of this event carries (msg_...)' }),
  type: EventTypeSchema,
  createdAt: Type.String({ format: 'date-time' }),
  payload: Type.Object({}, { additionalProperties: true, description: 'exactly the body its webhook deliveries carry, byte for byte (see the webhooks of this document)' }),
});

export const EventList = Type.Object({
  data: Type.Array(EventView, { description: 'oldest first' }),
  metadata: Type.Object({
    size: Type.Integer({ description: 'the page size asked for' }),
    hasMore: Type.Boolean({ description: 'more events follow: ask again with after = next' }),
    next: Type.Union([Type.String(), Type.Null()], { description: 'the cursor to pass as `after` for the following events (the last id listed, or the `after` given when none were)' }),
  }),
});

const TypeFilter = Type.Optional(
  Type.String({ maxLength: 200, description: `an event type, or several separated by commas: ${EVENT_TYPES.join(', ')}` }),
);

export const EventListQuery = Type.Object({
  after: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'an event id: list the events after it (default: from the first)' })),
  type: TypeFilter,
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: EVENT_PAGE_MAX, default: EVENT_PAGE_DEFAULT, description: `events per page, 1-${EVENT_PAGE_MAX}` })),
});

export const EventStreamQuery = Type.Object({ type: TypeFilter });

export const EventStreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'resume after this event id (the last `id:` received): no event lost or repeated' }),
  ),
});

export const EventIdParam = Type.String({ minLength: 1, maxLength: 100, description: 'the event id (msg_...)' });

/** 200 of a stream: Server-Sent Events. */
export const EventStreamResponse = {
  description:
    'Server-Sent Events: each event as `id: <event id>`, `event: <type>`, `data: <payload JSON>`; a `:` comment at least every 15 s. ' +
    'Without Last-Event-ID the stream starts with the events created after it opened.',
  content: { 'text/event-stream': { schema: Type.String() } },
};

export const ReplayBody = Type.Object({
  since: Type.String({ format: 'date-or-date-time', description: 'replay the deliveries of events created at or after this instant (a date alone: 00:00 UTC)' }),
  status: OneOf(REPLAY_STATUSES, { description: 'failed: the deliveries whose last attempt failed for good; all: every finished delivery' }),
  type: Type.Optional(EventTypeSchema),
});

export const ReplayAnswer = Type.Object({ queued: Type.Integer({ description: 'deliveries queued again (one per event and active URL)' }) });

/**
 * The JSON text of events: written by hand so that `payload` is the stored webhook body itself, byte
 * for byte (a parse and re-serialization could reorder or respace what receivers got).
 */
export function eventJson(event: StoredEvent): string {
  return `{"id":${JSON.stringify(event.eventId)},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(event.createdAt.toISOString())},"payload":${event.body}}`;
}

export function eventListJson(page: EventPage, size: number): string {
  const metadata = JSON.stringify({ size, hasMore: page.hasMore, next: page.next });
  return `{"data":[${page.events.map(eventJson).join(',')}],"metadata":${metadata}}`;
}
