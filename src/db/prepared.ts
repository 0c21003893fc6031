import { sql } from 'kysely';

/**
 * Marks a hot-path statement of fixed shape (its text never varies; values travel as parameters or
 * one JSON array) as a named prepared statement: on PostgreSQL each pooled connection parses and
 * plans it once (pg-pool.ts turns the marker into a named query). PGlite ignores the marker.
 * Never mark a statement whose text varies (an IN list of varying length): a name must mean one text.
 */
export const prepared = (name: string) => sql.raw(`/* prepared:${name} */ `);

/** The statement name a marked statement's text carries, if any. */
export function preparedNameOf(text: string): string | undefined {
  return /^\/\* prepared:([a-z0-9_.]+) \*\//.exec(text)?.[1];
}
