import { sql } from 'kysely';
import pg from 'pg';
import type { Harness } from '../harness.ts';

export const pgUrl = () => {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
};

/** The private schema the harness gave this test's database. */
export async function schemaOf(h: Harness): Promise<string> {
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(h.c.db);
  return rows[0]!.schema;
}

/** A connection of our own (not the service's pool) in the test's schema. */
export async function sideConnection(schema: string): Promise<pg.Client & { pid: number }> {
  const client = new pg.Client({ connectionString: pgUrl(), options: `-c search_path=${schema}`, application_name: `side_${schema}` });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return Object.assign(client, { pid: rows[0]!.pid });
}

/** Waits (bounded) until `count` backends are blocked by the given backend's locks. */
export async function waitForWaiters(observer: pg.Client, blockerPid: number, count: number, withinMs = 10_000): Promise<number> {
  const until = Date.now() + withinMs;
  let n = 0;
  while (Date.now() < until) {
    const { rows } = await observer.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
      [blockerPid],
    );
    n = Number(rows[0]!.n);
    if (n >= count) return n;
    await new Promise((r) => setTimeout(r, 25));
  }
  return n;
}
