import type { ColumnType } from 'kysely';

/**
 * Column types every table file shares. They live here, not in src/db/schema.ts, because schema.ts
 * assembles the table files: a table file importing it back would be an import cycle.
 */

/** A timestamp column: written as a Date (always from the Clock), read as a Date. */
export type Timestamp = ColumnType<Date, Date, Date>;
export type Json<T = unknown> = ColumnType<T, string | T, string | T>;

/** The webhook event types. */
export type EventType =
  | 'cash_in'
  | 'cash_out'
  | 'refund_in'
  | 'refund_out'
  | 'med_created'
  | 'med_accepted'
  | 'med_rejected';
