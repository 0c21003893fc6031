import type { ColumnType } from 'kysely';
import type { WebhookEventType } from '../../domain/closed-lists.ts';

/**
 * Column types every table file shares. They live here, not in src/db/schema.ts, because schema.ts
 * assembles the table files: a table file importing it back would be an import cycle.
 */

/** A timestamp column: written as a Date (always from the Clock), read as a Date. */
export type Timestamp = ColumnType<Date, Date, Date>;
export type Json<T = unknown> = ColumnType<T, string | T, string | T>;

/** A webhook event's name (the closed list is src/domain/closed-lists.ts). */
export type EventType = WebhookEventType;
