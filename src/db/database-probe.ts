import { sql, type Kysely } from 'kysely';
import { pendingMigrations, schemaMismatch } from './migrate.ts';

/** What GET /ready asks the database: does it answer, and is its schema this code's. */
export function createDatabaseProbe(db: Kysely<any>) {
  return {
    async ping(): Promise<void> {
      await sql`SELECT 1`.execute(db);
    },
    /** Migration files not applied to this database yet. */
    pendingMigrations: () => pendingMigrations(db),
    /** Why this build cannot serve the database's schema (pending migrations, a newer build's requirement, missing functions), or undefined. */
    schemaMismatch: () => schemaMismatch(db),
  };
}

export type DatabaseProbe = ReturnType<typeof createDatabaseProbe>;
