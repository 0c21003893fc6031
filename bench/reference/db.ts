/**
 * The reference servers' database: a database of its own (a reference process) or a schema `bench_ref_*`
 * on the same PostgreSQL (a pg Pool of 16, keep-alive TCP like the service's), or its own in-memory PGlite. One `query` per
 * statement, nothing else (no ORM, no transaction).
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PG_URL, type Engine } from '../lib/env.ts';
import { adminSql, dropSchema, privateSchema } from '../lib/schemas.ts';
import { quiet } from '../lib/statement-tap.ts';

export interface ReferenceDb {
  /** The schema its tables live in: write `${db.schema}.table`. */
  schema: string;
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number }>;
  /** Setup statements (not counted). */
  setup(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** The reference's pool: 16 connections (the reference). */
export const REFERENCE_POOL_SIZE = 16;

/**
 * `databaseUrl`: a database of its own (a reference in a process of its own), used as it is (schema
 * public); otherwise a private schema on PG_URL, dropped on close.
 */
export async function openReferenceDb(engine: Engine, options: { databaseUrl?: string; poolSize?: number } = {}): Promise<ReferenceDb> {
  if (engine === 'postgres') {
    const own = options.databaseUrl;
    const schema = own ? 'public' : privateSchema('bench_ref');
    if (!own) await adminSql(`CREATE SCHEMA ${schema}`);
    const url = own ?? PG_URL;
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? REFERENCE_POOL_SIZE, keepAlive: true, application_name: 'bench-reference' });
    pool.on('error', () => {});
    return {
      schema,
      async query<R>(text: string, params: unknown[] = []) {
        const r = await pool.query(text, params);
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      },
      // On a connection of its own: a pooled connection opened inside quiet() would carry that
      // context into the callbacks of its socket (pg-pool hands queued callers their client there).
      setup: (sql) => (own ? pool.query(sql).then(() => undefined) : adminSql(sql)),
      async close() {
        await pool.end();
        if (!own) await dropSchema(schema);
      },
    };
  }
  const pglite = await quiet(() => PGlite.create());
  const schema = 'ref';
  await quiet(() => pglite.exec(`CREATE SCHEMA ${schema}`));
  return {
    schema,
    async query<R>(text: string, params: unknown[] = []) {
      const r = await pglite.query<R>(text, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? 0 };
    },
    setup: (sql) => quiet(() => pglite.exec(sql).then(() => undefined)),
    close: () => pglite.close(),
  };
}
