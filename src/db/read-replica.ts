import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { parseReaderUrl } from './database-url.ts';
import { createHostSelector } from './host-selector.ts';
import { createGuardedPool, DEFAULT_DB_TIMEOUTS, type DbTimeouts } from './pg-pool.ts';
import type { DB } from './schema.ts';

/**
 * A streaming replica for reads (DATABASE_READ_URL) and how fresh it is. Every tick asks the primary
 * for its WAL position (`pg_current_wal_lsn()`), then the replica for how far it has replayed
 * (`pg_last_wal_replay_lsn()`): the replica holds everything the primary had at the latest tick whose
 * position it has replayed. Its lag is the time since that tick, an upper bound that needs no clock
 * on the replica and keeps growing while the replica is down, stopped or silent (a tick that does
 * not come back leaves the last known freshness to age).
 *
 * Why not `now() - pg_last_xact_replay_timestamp()`: on an idle primary it grows without any lag, and
 * it reads 0 when the replica lost its stream and replayed all it received.
 */

/** PostgreSQL's `pg_lsn` text (`16/B374D848`) as a number that compares. */
export function lsnOf(text: string): bigint {
  const [high, low] = text.split('/');
  if (high === undefined || low === undefined) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

export interface ReplicaFreshness {
  /** The replica answered its last check. */
  up: boolean;
  /** Milliseconds since the latest moment the replica is known to reflect (Infinity before the first). */
  lagMs: number;
  /** How far the replica had replayed at its last check (undefined before the first). */
  replayedLsn: bigint | undefined;
}

export interface ReadReplica {
  readonly db: Kysely<DB>;
  readonly maxLagMs: number;
  freshness(): ReplicaFreshness;
  /** A read on the replica failed for want of it: it is not used until a check finds it again. */
  markDown(reason: string): void;
  /** Checks now (tests; the timer does it every `intervalMs`). */
  check(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

const INT8 = 20;

/** How often the replica is checked: often enough that the bound is judged well within itself. */
export const checkIntervalMs = (maxLagMs: number) => Math.min(1_000, Math.max(100, Math.floor(maxLagMs / 5)));

export function openReadReplica(options: {
  url: string;
  /** The primary's handle: where the WAL position is asked. */
  primary: Kysely<DB>;
  maxLagMs: number;
  poolSize: number;
  timeouts?: Partial<DbTimeouts>;
  /** PostgreSQL: the schema the service's tables are in (tests isolate themselves in one). */
  schema?: string | undefined;
  applicationName?: string;
  logger?: Logger | undefined;
  /** Real time (freshness is about the servers, not the service's sandbox clock). */
  now?: () => number;
}): ReadReplica {
  const timeouts = { ...DEFAULT_DB_TIMEOUTS, ...options.timeouts };
  const now = options.now ?? Date.now;
  const { logger } = options;
  const target = parseReaderUrl(options.url);
  const connection = {
    application_name: options.applicationName ?? 'pix-account-service-reads',
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  };
  const selector =
    target.hosts.length > 1 || target.sessionAttrs !== 'any'
      ? createHostSelector({ target, connection, connectMs: timeouts.connectMs, queryMs: timeouts.queryMs, logger })
      : undefined;
  const { kyselyPool } = createGuardedPool({
    timeouts,
    logger,
    selector,
    pool: {
      connectionString: options.url,
      ...connection,
      max: options.poolSize,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    },
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: kyselyPool as never }) });

  const intervalMs = checkIntervalMs(options.maxLagMs);
  /** The primary's WAL position at each recent check, oldest first. */
  const samples: Array<{ at: number; lsn: bigint }> = [];
  let freshAsOf: number | undefined;
  let replayedLsn: bigint | undefined;
  let up = false;
  let wasUsable = true;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function check() {
    const at = now();
    try {
      const primary = await sql<{ lsn: string }>`SELECT pg_catalog.pg_current_wal_lsn()::text AS lsn`.execute(options.primary);
      samples.push({ at, lsn: lsnOf(primary.rows[0]!.lsn) });
    } catch (error) {
      // Without the primary's position nothing new is known about freshness; reads go to the primary anyway.
      logger?.debug({ err: error }, 'read replica: could not ask the primary for its WAL position');
    }
    // A window a little longer than the bound: an older tick only ever says "lagging past the bound".
    while (samples.length > 2 && samples[1]!.at < at - options.maxLagMs - 2 * intervalMs) samples.shift();
    try {
      // A host that is not in recovery is a primary (the read URL names the primary, or a promoted
      // replica that the writer follows too): it holds everything it has written.
      const row = (
        await sql<{ lsn: string | null }>`SELECT (CASE WHEN pg_catalog.pg_is_in_recovery() THEN pg_catalog.pg_last_wal_replay_lsn() ELSE pg_catalog.pg_current_wal_lsn() END)::text AS lsn`.execute(db)
      ).rows[0]!;
      up = row.lsn !== null;
      if (row.lsn !== null) {
        const replayed = lsnOf(row.lsn);
        replayedLsn = replayed;
        for (const sample of samples) if (sample.lsn <= replayed && (freshAsOf === undefined || sample.at > freshAsOf)) freshAsOf = sample.at;
      }
    } catch (error) {
      if (up) logger?.warn({ err: error }, 'read replica: not answering; reads go to the primary');
      up = false;
    }
    const usable = isUsable();
    if (usable !== wasUsable) {
      const lagMs = lag();
      logger?.warn({ up, lagMs: Number.isFinite(lagMs) ? lagMs : null, maxLagMs: options.maxLagMs }, usable ? 'read replica: fresh again; reads go to it' : 'read replica: down or lagging past DATABASE_READ_MAX_LAG_MS; reads go to the primary');
      wasUsable = usable;
    }
  }

  const lag = () => (freshAsOf === undefined ? Infinity : Math.max(0, now() - freshAsOf));
  const isUsable = () => up && lag() <= options.maxLagMs;

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = check().finally(() => {
        running = undefined;
        schedule();
      });
    }, intervalMs);
    timer.unref();
  }

  return {
    db,
    maxLagMs: options.maxLagMs,
    freshness: () => ({ up, lagMs: lag(), replayedLsn }),
    markDown(reason) {
      if (up) logger?.warn({ reason }, 'read replica: a read failed; reads go to the primary until it answers again');
      up = false;
    },
    check,
    start() {
      stopped = false;
      running = check().finally(() => {
        running = undefined;
        schedule();
      });
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => {});
      await db.destroy();
    },
  };
}
