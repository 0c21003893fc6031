/** Private PostgreSQL schemas: each benchmark instance gets its own, dropped afterwards. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_URL } from './env.ts';
import { quiet } from './statement-tap.ts';

export const privateSchema = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;

/** Runs SQL on a connection of its own (not counted as the service's or the reference's). */
export function adminSql(sql: string): Promise<void> {
  return quiet(async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  });
}

export const dropSchema = (schema: string) => adminSql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
