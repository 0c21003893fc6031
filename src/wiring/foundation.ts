import pino, { type Logger } from 'pino';
import type { Config } from '../config.ts';
import { AdjustableClock, systemClock, type Clock } from '../domain/clock.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openReadReplica } from '../db/read-replica.ts';
import { createReadRouting, registerReplicaLagMetric } from '../db/read-routing.ts';
import { createScheduler } from '../jobs/scheduler.ts';
import { IDLE_SAFETY_POLL_MS } from '../jobs/due-wakeups.ts';
import { createLedger } from '../ledger/ledger.ts';
import { createMetrics } from '../metrics.ts';
import { createSandboxClockStore } from '../services/sandbox/sandbox-clock.ts';
import { createOutbox } from '../webhooks/outbox.ts';
import { accountAwareClock } from '../services/test-clocks/account-time.ts';

function defaultLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-ssl-client-cert"]', '*.clientSecret', '*.client_secret'], censor: '[redacted]' },
  });
}

/** The database, migrated, with its read routing; the sandbox clock restored. */
async function openMigrated(config: Config, logger: Logger, given: Database | undefined) {
  const database =
    given ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.database.poolSize,
      timeouts: config.database.timeouts,
      preparedStatements: config.database.preparedStatements,
      listenUrl: config.database.listenUrl,
      logger,
    }));
  await migrate(database.db);
  return database;
}

/**
 * What every feature is built on: the logger, the clock, the migrated database and where reads go,
 * the metrics, the ledger, the outbox and the job scheduler.
 */
export async function buildFoundation(config: Config, options: { clock?: Clock; database?: Database; logger?: Logger }) {
  const logger = options.logger ?? defaultLogger(config);
  const clock: Clock = options.clock ?? (config.mode === 'sandbox' ? new AdjustableClock({}) : systemClock);
  const sandboxClock = clock instanceof AdjustableClock ? clock : undefined;
  const database = await openMigrated(config, logger, options.database);
  const db = database.db;
  // The running sandbox clock (not a clock given by a test) keeps its lead across restarts.
  const sandboxClockStore = sandboxClock && !sandboxClock.frozen ? createSandboxClockStore({ db, clock: sandboxClock }) : undefined;
  await sandboxClockStore?.restore();
  const metrics = createMetrics();
  // DATABASE_READ_URL: the read-only pages and routes read on the replica while it is fresh for the caller.
  const readReplica =
    config.databaseRead && database.engine === 'postgres'
      ? openReadReplica({ url: config.databaseRead.url, primary: db, maxLagMs: config.databaseRead.maxLagMs, poolSize: config.database.poolSize, timeouts: config.database.timeouts, logger })
      : undefined;
  const reads = createReadRouting({ primary: db, replica: readReplica, logger });
  registerReplicaLagMetric(metrics.registry, readReplica);
  const scheduler = createScheduler({ db, clock, logger, metrics, concurrency: database.engine === 'postgres' ? 2 : 1, safetyPollMs: IDLE_SAFETY_POLL_MS });
  // The time rules of accounts (issue 29 item 3): an account on a sandbox test clock sees that clock's
  // time (services/test-clocks/account-time.ts); service concerns (tokens, limits of requests,
  // sessions, leases) keep `clock`.
  const accountClock = accountAwareClock(clock);
  return {
    logger, clock, accountClock, sandboxClock, sandboxClockStore, database, db, metrics, readReplica, reads,
    ledger: createLedger({ clock: accountClock }), outbox: createOutbox({ clock: accountClock }), scheduler,
  };
}

export type Foundation = Awaited<ReturnType<typeof buildFoundation>>;
