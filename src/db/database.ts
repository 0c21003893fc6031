import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from './pglite-dialect.ts';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import type { DB } from './schema.ts';

/** The Kysely handle every repository receives, and the means to close it. */
export interface Database {
  readonly db: Kysely<DB>;
  readonly engine: 'postgres' | 'pglite';
  /** PostgreSQL: the connection pool's counts (metrics). */
  readonly poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export class DataDirLockedError extends Error {
  constructor(dir: string) {
    super(
      `The embedded database in "${dir}" is already in use by another process. ` +
        'Stop that process, or start this one with another DATA_DIR (or DATABASE_URL for PostgreSQL).',
    );
  }
}

const INT8 = 20;
// Amounts fit in 2^53 (the largest is 999,999,999.99 BRL in cents), so int8 columns read as numbers.
const parseInt8 = (value: string) => Number(value);

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** A folder for the embedded database, or `memory://`. */
  dataDir: string;
  /** PostgreSQL only: a schema to create and use (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.schema, options.poolSize ?? 10);
  return openPglite(options.dataDir);
}

async function openPostgres(url: string, schema: string | undefined, max: number): Promise<Database> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  if (schema) {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await setup.end();
  }
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  await pool.query('SELECT 1');
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    engine: 'postgres',
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

async function openPglite(dataDir: string): Promise<Database> {
  const inMemory = dataDir === 'memory://';
  let release: (() => Promise<void>) | undefined;
  let folder: string | undefined;
  if (!inMemory) {
    folder = path.resolve(dataDir, 'pglite');
    mkdirSync(folder, { recursive: true });
    try {
      // A lock beside the data folder: PGlite itself does not stop a second process from opening
      // (and corrupting) the same files.
      release = await lockfile.lock(folder, { stale: 15_000, update: 5_000, realpath: false });
    } catch (error) {
      if ((error as { code?: string }).code === 'ELOCKED') throw new DataDirLockedError(path.resolve(dataDir));
      throw error;
    }
  }
  try {
    const pglite = await PGlite.create(inMemory ? undefined : folder, { parsers: { [INT8]: parseInt8 } });
    const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
    return {
      db,
      engine: 'pglite',
      close: async () => {
        await db.destroy();
        if (!pglite.closed) await pglite.close();
        await release?.();
      },
    };
  } catch (error) {
    await release?.();
    throw error;
  }
}
