/**
 * The reference servers' database: its own schema `ref_*` on the same PostgreSQL (a pg Pool of the
 * service's size, keep-alive TCP like the service's), or its own in-memory PGlite. One `query` per
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

export async function openReferenceDb(engine: Engine, poolSize = 20): Promise<ReferenceDb> {
  if (engine === 'postgres') {
    const schema = privateSchema('bench_ref');
    await adminSql(`CREATE SCHEMA ${schema}`);
    const pool = new pg.Pool({ connectionString: PG_URL, max: poolSize, keepAlive: true, application_name: 'bench-reference' });
    pool.on('error', () => {});
    return {
      schema,
      async query<R>(text: string, params: unknown[] = []) {
        const r = await pool.query(text, params);
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      },
      // On a connection of its own: a pooled connection opened inside quiet() would carry that
      // context into the callbacks of its socket (pg-pool hands queued callers their client there).
      setup: (sql) => adminSql(sql),
      async close() {
        await pool.end();
        await dropSchema(schema);
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
