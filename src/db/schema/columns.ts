import type { ColumnType } from 'kysely';

/** Column types every table file uses (src/db/schema.ts re-exports them). */
export type Timestamp = ColumnType<Date, Date, Date>;
export type Json<T = unknown> = ColumnType<T, string | T, string | T>;
