import type { Kysely } from 'kysely';
import type { DB, EventType } from '../../db/schema.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { WEBHOOK_EVENT_TYPES } from '../../domain/closed-lists.ts';
import { BEFORE_ALL, eventsRepo, type EventPosition, type StoredEvent } from '../../webhooks/events.repo.ts';

export const EVENT_PAGE_DEFAULT = 100;
export const EVENT_PAGE_MAX = 1000;

export interface EventPage {
  events: StoredEvent[];
  /** True when more events follow the last one (ask again with `after` = `next`). */
  hasMore: boolean;
  /** The cursor for the next call: the last event's id, or the `after` given when none came. */
  next: string | null;
}

/**
 * An account's events, as its webhooks carried them (issue 29): a page after a cursor, one by id,
 * and the positions a live stream starts from. Each account reads only its own: another account's
 * event id is unknown here (404, or a 400 naming the cursor field).
 */
export function createEventLog(deps: { db: Kysely<DB>; accounts: { get(id: number): Promise<unknown> } }) {
  const { db } = deps;

  /** Where the event `eventId` of the account stands; unknown, a 400 naming `field`. */
  async function positionOf(accountId: number, eventId: string, field: string): Promise<EventPosition> {
    const found = await eventsRepo.find(db, accountId, eventId);
    if (!found) throw new ValidationError([`${field} must be the id of one of the account's events (${JSON.stringify(eventId.slice(0, 64))} is not)`]);
    return found.position;
  }

  return {
    /** Admin routes: a 404 for an account that does not exist. */
    requireAccount: async (accountId: number) => void (await deps.accounts.get(accountId)),

    async page(accountId: number, input: { after?: string | undefined; types?: EventType[] | undefined; size?: number | undefined }): Promise<EventPage> {
      const size = input.size ?? EVENT_PAGE_DEFAULT;
      const after = input.after === undefined ? BEFORE_ALL : await positionOf(accountId, input.after, 'after');
      const rows = await eventsRepo.after(db, accountId, { after, types: input.types, limit: size + 1 });
      const events = rows.slice(0, size);
      return { events, hasMore: rows.length > size, next: events.at(-1)?.eventId ?? input.after ?? null };
    },

    async get(accountId: number, eventId: string): Promise<StoredEvent> {
      const found = await eventsRepo.find(db, accountId, eventId);
      if (!found) throw new DomainError('NOT_FOUND', undefined, `Event ${eventId.slice(0, 64)} not found`);
      return found;
    },

    /** A stream's start: after `lastEventId` (the Last-Event-ID header), else the present. */
    streamStart: (accountId: number, lastEventId: string | undefined): Promise<EventPosition> =>
      lastEventId === undefined ? eventsRepo.head(db) : positionOf(accountId, lastEventId, 'Last-Event-ID'),

    /** The account's latest events, newest first, each with its delivery attempts (the portal). */
    async recent(accountId: number, limit: number) {
      const events = await eventsRepo.latest(db, accountId, limit);
      const attempts = await eventsRepo.attemptsOf(db, accountId, events.map((e) => e.position.id));
      return events.map((event) => ({ event, attempts: attempts.filter((a) => a.eventRowId === event.position.id) }));
    },

    /** The stream's next events after `position` (only those no running transaction can precede). */
    after: (accountId: number, position: EventPosition, types: EventType[] | undefined, limit: number) =>
      eventsRepo.after(db, accountId, { after: position, types, limit }),

    /** Changes only when what `after` can show may have changed (see eventsRepo.horizon). */
    horizon: () => eventsRepo.horizon(db),
  };
}

export type EventLog = ReturnType<typeof createEventLog>;

/**
 * The `type` filter: one event name or several separated by commas (`cash_in,cash_out`); an unknown
 * name is a 400 naming the field.
 */
export function parseEventTypes(value: string | undefined, field = 'type'): EventType[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new ValidationError([`${field} must be one or more of ${WEBHOOK_EVENT_TYPES.join(', ')}, separated by commas (got ${JSON.stringify(unknown[0]!.slice(0, 40))})`]);
  }
  return [...new Set(names)] as EventType[];
}
