import { sql, type Kysely } from 'kysely';
import { pendingMigrations } from './migrate.ts';

/** What GET /ready asks the database: does it answer, and is its schema this code's. */
export function createDatabaseProbe(db: Kysely<any>) {
  return {
    async ping(): Promise<void> {
      await sql`SELECT 1`.execute(db);
    },
    /** Migration files not applied to this database yet. */
    pendingMigrations: () => pendingMigrations(db),
  };
}

export type DatabaseProbe = ReturnType<typeof createDatabaseProbe>;
