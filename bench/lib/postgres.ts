/**
 * The PostgreSQL server the benchmarks measure on, and what they read from it.
 *
 * - `BENCH_PG_URL` set: that server (its `postgres` database is used to create and drop the trials'
 *   databases). Statement counts and time by statement need `pg_stat_statements` preloaded there;
 *   WAL and CPU figures need a server nothing else writes to, so they are printed only for the
 *   benchmark's own cluster.
 * - otherwise: a private cluster started for the run (bench/lib/pg-cluster.ts), with
 *   `pg_stat_statements` preloaded and durable commits; stopped at exit.
 *
 * Each side of each trial gets a database of its own (`CREATE DATABASE`), dropped afterwards, so
 * per-database statistics (pg_stat_statements by dbid, pg_stat_user_tables) are that side's alone.
 * The benchmark's own reads carry the comment OBSERVER and are left out of every count.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { processTreeCpuSeconds } from './cpu.ts';
import { startPgCluster, type PgCluster } from './pg-cluster.ts';

/** Marks the benchmark's own statements, so pg_stat_statements counts leave them out. */
export const OBSERVER = '/* bench-observer */';

export interface BenchPostgres {
  /** A URL of the server's maintenance database. */
  url: string;
  /** The private cluster, when the benchmark started one (WAL, CPU and waldump figures). */
  cluster: PgCluster | undefined;
  /** pg_stat_statements is loaded (statement counts and time by statement). */
  statements: boolean;
  /** What the figures were taken on, printed in the header. */
  describe: string;
  /** A URL of `database` on this server. */
  urlOf(database: string): string;
  createDatabase(prefix: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  /** One query on a connection of its own, to `database` (default: the maintenance one). */
  query<R = Record<string, unknown>>(text: string, params?: unknown[], database?: string): Promise<R[]>;
  /** The cluster's CPU seconds so far (own cluster only). */
  cpuSeconds(): number | undefined;
}

let shared: Promise<BenchPostgres> | undefined;

export function benchPostgres(): Promise<BenchPostgres> {
  shared ??= open();
  return shared;
}

async function open(): Promise<BenchPostgres> {
  const given = process.env.BENCH_PG_URL;
  const cluster = given ? undefined : await startPgCluster();
  const url = given ?? cluster!.url;
  const urlOf = (database: string) => {
    const u = new URL(url);
    u.pathname = `/${database}`;
    return u.toString();
  };
  const query = async <R>(text: string, params: unknown[] = [], database?: string): Promise<R[]> => {
    const client = new pg.Client({ connectionString: database ? urlOf(database) : url, application_name: 'bench-observer' });
    await client.connect();
    try {
      return (await client.query(`${OBSERVER} ${text}`, params)).rows as R[];
    } finally {
      await client.end();
    }
  };
  let statements = false;
  try {
    await query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await query('SELECT 1 FROM pg_stat_statements LIMIT 1');
    statements = true;
  } catch {
    statements = false;
  }
  const settings = await query<{ name: string; setting: string }>(
    `SELECT name, setting FROM pg_settings WHERE name IN ('server_version', 'fsync', 'synchronous_commit', 'autovacuum', 'shared_buffers', 'max_connections') ORDER BY name`,
  );
  const describe =
    `${cluster ? `private cluster on port ${cluster.port}` : `BENCH_PG_URL ${new URL(url).host}`}: ` +
    settings.map((s) => `${s.name}=${s.setting}`).join(' ') +
    `, pg_stat_statements ${statements ? 'loaded' : 'NOT loaded (no statement counts)'}`;
  return {
    url,
    cluster,
    statements,
    describe,
    urlOf,
    async createDatabase(prefix) {
      const name = `${prefix}_${randomBytes(5).toString('hex')}`;
      await query(`CREATE DATABASE ${name}`);
      return name;
    },
    async dropDatabase(name) {
      await query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
    query,
    cpuSeconds: () => (cluster ? processTreeCpuSeconds(cluster.pid()) : undefined),
  };
}

/** Statements the side's database ran (top level, the benchmark's own left out), from pg_stat_statements. */
export async function statementCalls(pgs: BenchPostgres, database: string): Promise<number | undefined> {
  if (!pgs.statements) return undefined;
  const rows = await pgs.query<{ calls: string | null }>(
    `SELECT sum(s.calls) AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = $1 AND s.toplevel AND s.query NOT LIKE '%bench-observer%'`,
    [database],
  );
  return Number(rows[0]?.calls ?? 0);
}

/** Forgets the statement statistics of one database (its figures then start at zero). */
export async function resetStatements(pgs: BenchPostgres, database: string): Promise<void> {
  if (!pgs.statements) return;
  await pgs.query(`SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = $1), 0)`, [database]);
}
