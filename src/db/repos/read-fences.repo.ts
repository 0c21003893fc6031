import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema.ts';

/**
 * The read fences (migration 1330): per caller, the primary's WAL position after its latest write.
 * Infrastructure of the read routing, not a domain table: not in the DB type, written and read here only.
 */
export const readFencesRepo = {
  /** Raises each caller's fence to the primary's WAL position now (after the caller's commit, so past it). */
  async raise(db: Kysely<DB>, callers: readonly string[]): Promise<void> {
    if (callers.length === 0) return;
    // Key order: two requests raising the same fences never wait on each other in a cycle.
    const sorted = [...new Set(callers)].sort();
    await sql`
      INSERT INTO read_fences (caller, lsn, updated_at)
      SELECT caller, pg_catalog.pg_current_wal_lsn(), now() FROM unnest(${sorted}::text[]) AS caller
      ON CONFLICT (caller) DO UPDATE SET lsn = GREATEST(read_fences.lsn, EXCLUDED.lsn), updated_at = EXCLUDED.updated_at`.execute(db);
  },

  /** The highest fence of these callers, as pg_lsn text, or undefined when none has one. */
  async highest(db: Kysely<DB>, callers: readonly string[]): Promise<string | undefined> {
    const { rows } = await sql<{ lsn: string | null }>`SELECT max(lsn)::text AS lsn FROM read_fences WHERE caller = ANY(${callers}::text[])`.execute(db);
    return rows[0]?.lsn ?? undefined;
  },
};
