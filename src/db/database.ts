import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from './pglite-dialect.ts';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import type { Logger } from 'pino';
import { EMBEDDED_VACUUM_DEFAULTS, startEmbeddedVacuum, type EmbeddedVacuum, type EmbeddedVacuumOptions } from './embedded-vacuum.ts';
import { createGuardedPool, DEFAULT_DB_TIMEOUTS, type DbTimeouts } from './pg-pool.ts';
import { parseWriterUrl } from './database-url.ts';
import { createHostSelector, type HostSelector } from './host-selector.ts';
import { startLivenessProbe } from './liveness-probe.ts';
import type { DB } from './schema.ts';
import { noListen, pgliteListen, postgresListen, type Listen } from './notifications.ts';

/** The Kysely handle every repository receives, and the means to close it. */
export interface Database {
  readonly db: Kysely<DB>;
  readonly engine: 'postgres' | 'pglite';
  /** Subscribes to NOTIFY channels (wake-ups for due jobs and deliveries, see notifications.ts). */
  readonly listen: Listen;
  /** PostgreSQL: the connection pool's counts (metrics). */
  readonly poolStats?: () => { total: number; idle: number; waiting: number };
  /** PostgreSQL: the pool's size and its sessions' lock timeout (the per-account bulkhead's bounds). */
  readonly bounds?: { poolSize: number; lockTimeoutMs: number };
  /** PGlite: its autovacuum (embedded-vacuum.ts), unless opened without one. */
  readonly vacuum?: EmbeddedVacuum;
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
  /**
   * `memory://` only: start from this data folder (a tarball of PGlite's `dumpDataDir`) instead of an
   * empty cluster. The tests start every in-memory database from one already migrated snapshot.
   */
  loadDataDir?: Blob;
  /** PostgreSQL only: a schema to create and use (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
  /** PostgreSQL only: the bounds of every wait (defaults: DEFAULT_DB_TIMEOUTS). */
  timeouts?: Partial<DbTimeouts>;
  /** PostgreSQL only: names the service's connections in pg_stat_activity. */
  applicationName?: string;
  /**
   * PostgreSQL only (DATABASE_PREPARED_STATEMENTS, default true): false for a transaction pooler in
   * front of PostgreSQL (PgBouncer `pool_mode = transaction`): no named statements, no session state.
   */
  preparedStatements?: boolean;
  /**
   * PostgreSQL only (DATABASE_LISTEN_URL): the session LISTEN runs on, straight to PostgreSQL.
   * Unset: DATABASE_URL, except behind a transaction pooler (preparedStatements false), where a
   * LISTEN would be lost with its transaction: then nothing listens and the scheduler polls.
   */
  listenUrl?: string | undefined;
  logger?: Logger;
  /** PGlite only: its autovacuum's periods (default EMBEDDED_VACUUM_DEFAULTS); false: none. */
  vacuum?: Omit<EmbeddedVacuumOptions, 'logger'> | false;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.schema, options.poolSize ?? 10, options);
  return openPglite(options.dataDir, options.loadDataDir, options.vacuum === false ? undefined : { ...EMBEDDED_VACUUM_DEFAULTS, ...options.vacuum, logger: options.logger });
}

async function openPostgres(url: string, schema: string | undefined, max: number, options: DatabaseOptions): Promise<Database> {
  const timeouts = { ...DEFAULT_DB_TIMEOUTS, ...options.timeouts };
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const sessions = options.preparedStatements ?? true;
  // A transaction pooler refuses the `options` startup parameter (and would not keep a search_path):
  // there, a schema of one's own is a database of one's own, and the client check goes per transaction.
  if (!sessions && schema !== undefined) throw new Error('a schema of its own needs a session: use a database of its own behind a transaction pooler');
  const session = {
    application_name: options.applicationName ?? 'pix-account-service',
    ...(sessions ? sessionOptions(schema, timeouts.clientCheckMs) : {}),
  };
  // One host and no session attributes: node-postgres connects as ever. Several hosts (libpq's
  // multi-host form) or target_session_attrs: every connection goes through the host selector.
  const target = parseWriterUrl(url);
  const selector: HostSelector | undefined =
    target.hosts.length > 1 || target.sessionAttrs !== 'any'
      ? createHostSelector({ target, connection: session, connectMs: timeouts.connectMs, queryMs: timeouts.queryMs, logger: options.logger })
      : undefined;
  /** Where a connection made now goes (the selector's host, found first when none is known), and how to report losing it. */
  const connectionNow = async () => {
    if (!selector) return { config: { connectionString: url }, lost: () => {} };
    const host = await selector.primary();
    return { config: selector.connectionFor(host), lost: (reason: string) => selector.lost(host, reason), host };
  };
  if (schema) {
    const setup = new pg.Client({ ...(await connectionNow()).config, connectionTimeoutMillis: timeouts.connectMs, query_timeout: timeouts.queryMs });
    await setup.connect();
    await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await setup.end();
  }
  const connection = { connectionString: url, ...session };
  const { pool, kyselyPool } = createGuardedPool({
    timeouts,
    logger: options.logger,
    selector,
    preparedStatements: sessions,
    pool: {
      ...connection,
      max,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    },
  });
  await selector?.primary();
  await pool.query('SELECT 1');
  // Several hosts: a chosen host that goes silent is left within seconds (liveness-probe.ts).
  const probe = selector && startLivenessProbe({ selector, connection: session, logger: options.logger });

  /** Where LISTEN runs: DATABASE_LISTEN_URL (its own host list), else DATABASE_URL's session, else nowhere (see listenUrl). */
  function listenOn(): Listen {
    const listenSession = { application_name: session.application_name, ...sessionOptions(schema, timeouts.clientCheckMs) };
    if (options.listenUrl !== undefined) {
      const listenTarget = parseWriterUrl(options.listenUrl);
      const listenSelector =
        listenTarget.hosts.length > 1 || listenTarget.sessionAttrs !== 'any'
          ? createHostSelector({ target: listenTarget, connection: listenSession, connectMs: timeouts.connectMs, queryMs: timeouts.queryMs, logger: options.logger })
          : undefined;
      const listenUrl = options.listenUrl;
      return postgresListen({
        open: async () => {
          if (!listenSelector) return { config: { ...listenSession, connectionString: listenUrl }, lost: () => {} };
          const host = await listenSelector.primary();
          return { config: { ...listenSession, ...listenSelector.connectionFor(host) }, lost: (reason) => listenSelector.lost(host, reason), host };
        },
        timeouts,
        logger: options.logger,
        onSilent: listenSelector && ((listener) => listenSelector.onSilent(listener)),
      });
    }
    if (!sessions) return noListen(options.logger);
    return postgresListen({
      open: async () => {
        const { config, lost, host } = await connectionNow();
        return { config: { ...session, ...config }, lost, ...(host ? { host } : {}) };
      },
      timeouts,
      logger: options.logger,
      onSilent: selector && ((listener) => selector.onSilent(listener)),
    });
  }
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: kyselyPool as never }) });
  return {
    db,
    engine: 'postgres',
    listen: listenOn(),

    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    bounds: { poolSize: pool.options.max, lockTimeoutMs: timeouts.lockMs },
    close: async () => {
      await probe?.stop();
      await db.destroy();
    },
  };
}

const lockOptions = { stale: 15_000, update: 5_000, realpath: false } as const;

/**
 * A lock beside the data folder: PGlite itself does not stop a second process from opening (and
 * corrupting) the same files. The lock names its owner (pid and host), so a restart after a crash
 * (kill -9, power loss) finds the owner gone and starts at once instead of waiting for the lock to
 * go stale; a live owner, or one on another host, still refuses.
 */
async function lockDataFolder(folder: string, dataDir: string): Promise<() => Promise<void>> {
  const lockDir = `${folder}.lock`;
  // Beside the lock, not in it: the lock library removes its folder with rmdir.
  const ownerFile = `${lockDir}.owner`;
  for (let attempt = 1; ; attempt++) {
    try {
      const release = await lockfile.lock(folder, lockOptions);
      // The lock folder's inode ties this record to this very lock, not to an earlier one.
      writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, host: hostname(), lock: statSync(lockDir).ino }));
      return async () => {
        rmSync(ownerFile, { force: true });
        await release();
      };
    } catch (error) {
      if ((error as { code?: string }).code !== 'ELOCKED') throw error;
      if (attempt === 1 && ownerIsGone(lockDir, ownerFile)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      throw new DataDirLockedError(dataDir);
    }
  }
}

/** True only when the lock's recorded owner is a process of this host that no longer runs. */
function ownerIsGone(lockDir: string, ownerFile: string): boolean {
  let owner: { pid?: unknown; host?: unknown; lock?: unknown };
  try {
    owner = JSON.parse(readFileSync(ownerFile, 'utf8'));
    if (owner.lock !== statSync(lockDir).ino) return false; // a record of another lock: wait for staleness
  } catch {
    return false; // no owner recorded (yet): wait for the lock to go stale
  }
  if (typeof owner.pid !== 'number' || owner.host !== hostname() || owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'ESRCH';
  }
}

async function openPglite(dataDir: string, loadDataDir: Blob | undefined, vacuumOptions: EmbeddedVacuumOptions | undefined): Promise<Database> {
  const inMemory = dataDir === 'memory://';
  let release: (() => Promise<void>) | undefined;
  let folder: string | undefined;
  if (!inMemory) {
    folder = path.resolve(dataDir, 'pglite');
    mkdirSync(folder, { recursive: true });
    release = await lockDataFolder(folder, path.resolve(dataDir));
  }
  try {
    if (loadDataDir && !inMemory) throw new Error('loadDataDir is for an in-memory database only');
    const pglite = await PGlite.create(inMemory ? undefined : folder, { parsers: { [INT8]: parseInt8 }, ...(loadDataDir ? { loadDataDir } : {}) });
    const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
    const vacuum = vacuumOptions ? startEmbeddedVacuum(db, () => pglite.closed, vacuumOptions) : undefined;
    return {
      db,
      engine: 'pglite',
      listen: pgliteListen(pglite),
      ...(vacuum ? { vacuum } : {}),
      close: async () => {
        await vacuum?.stop();
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

/** Settings every pooled session starts with (the `options` startup parameter). */
function sessionOptions(schema: string | undefined, clientCheckMs: number): { options?: string } {
  const settings = [
    ...(schema ? [`-c search_path=${schema}`] : []),
    ...(clientCheckMs > 0 ? [`-c client_connection_check_interval=${clientCheckMs}`] : []),
  ];
  return settings.length > 0 ? { options: settings.join(' ') } : {};
}
