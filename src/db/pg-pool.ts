import { preparedNameOf } from './prepared.ts';
import { beginWithBounds, isSingleStatement, isTransactionStart, localBounds, queryBounded } from './pooler-session.ts';
import type { Logger } from 'pino';
import pg from 'pg';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './db-faults.ts';
import type { DatabaseHost } from './database-url.ts';
import type { HostSelector } from './host-selector.ts';

/** Every wait on PostgreSQL is bounded (milliseconds); see docs/decisions.md "Database faults". */
export interface DbTimeouts {
  /** Opening a new connection (TCP + startup). */
  connectMs: number;
  /** Waiting for a pooled connection when all are busy: past it, 503 at once rather than a queue. */
  acquireMs: number;
  /** Server side: one statement's run time. */
  statementMs: number;
  /** Server side: waiting for a row or table lock. */
  lockMs: number;
  /** Server side: a transaction left open without a statement (a stalled or lost client). */
  idleInTransactionMs: number;
  /** Client side: no answer to a query (a partition the server cannot see); the connection is dropped. */
  queryMs: number;
  /** TCP keepalive probes start after this idle time. */
  keepAliveInitialDelayMs: number;
  /**
   * Server side: how often a running statement checks that its client is still there (PostgreSQL 14+
   * `client_connection_check_interval`; 0 turns it off). A statement whose client is gone (a lost
   * connection that was answered 503) is cancelled instead of committing later on its own.
   */
  clientCheckMs: number;
}

export const DEFAULT_DB_TIMEOUTS: DbTimeouts = {
  connectMs: 5_000,
  acquireMs: 2_000,
  statementMs: 10_000,
  lockMs: 3_000,
  idleInTransactionMs: 15_000,
  queryMs: 12_000,
  keepAliveInitialDelayMs: 10_000,
  clientCheckMs: 1_000,
};

type PoolClient = pg.PoolClient;

/** SQLSTATE 25006 read_only_sql_transaction: this connection's server cannot take writes (a standby, or a demoted primary). */
const READ_ONLY = '25006';

/** Errors of one statement, not of the connection it ran on (the connection stays usable). */
const STATEMENT_ONLY = /^(55P03|57014|40P01|40001)$/;

/**
 * With a host selector (a multi-host DATABASE_URL), each new pooled connection goes to the host it
 * names, and a connection that fails to open makes it search again. The pool builds clients with
 * `new Client(options)`, so the host is chosen in the constructor.
 */
function clientOnSelectedHost(selector: HostSelector) {
  return class SelectedHostClient extends pg.Client {
    readonly databaseHost: DatabaseHost;
    constructor(config?: pg.ClientConfig) {
      const host = selector.hostForNewConnection();
      super({ ...config, ...selector.connectionFor(host) });
      this.databaseHost = host;
    }
    // pg-pool connects with a callback; anything else with the promise.
    override connect(...args: unknown[]): never {
      const callback = args[0] as ((error: Error | null) => void) | undefined;
      const failed = (error: Error) => selector.lost(this.databaseHost, `could not connect: ${error.message}`);
      const connecting = (super.connect as () => Promise<unknown>).call(this).catch((error: Error) => {
        failed(error);
        throw error;
      });
      if (!callback) return connecting as never;
      connecting.then(() => callback(null), (error: Error) => callback(error));
      return undefined as never;
    }
  };
}

const sameHost = (a: DatabaseHost | undefined, b: DatabaseHost | undefined) => a !== undefined && b !== undefined && a.host === b.host && a.port === b.port;

const hostOf = (client: unknown): DatabaseHost | undefined => (client as { databaseHost?: DatabaseHost }).databaseHost;

/**
 * The pool Kysely receives: node-postgres's pool with every wait bounded, an `error` listener on
 * every client for its whole life (a checked-out client losing its connection would otherwise
 * crash the process with an unhandled 'error' event), and broken clients destroyed on release
 * instead of being handed to the next request.
 */
export function createGuardedPool(options: {
  pool: pg.PoolConfig;
  timeouts: DbTimeouts;
  logger?: Logger | undefined;
  /** A multi-host DATABASE_URL: which host connections go to (host-selector.ts). */
  selector?: HostSelector | undefined;
  /**
   * DATABASE_PREPARED_STATEMENTS (default true). False (a transaction pooler in front): every
   * statement goes unnamed, and the server-side bounds are set per transaction instead of as
   * startup parameters (pooler-session.ts).
   */
  preparedStatements?: boolean | undefined;
}) {
  const { timeouts, logger, selector } = options;
  const sessions = options.preparedStatements ?? true;
  const bounds = localBounds(timeouts);
  /** Behind a pooler: each connection's transaction status, from its last ReadyForQuery ('I' idle, 'T' in a transaction, 'E' failed one). */
  const transactionStatus = new WeakMap<PoolClient, string>();
  const pool = new pg.Pool({
    ...options.pool,
    ...(selector
      ? {
          Client: clientOnSelectedHost(selector),
          // Each new connection's session is checked (read-write, primary...) before the pool hands it out.
          onConnect: (client: pg.ClientBase) => selector.verify(client, hostOf(client)!),
        }
      : {}),
    connectionTimeoutMillis: timeouts.connectMs,
    ...(sessions
      ? { statement_timeout: timeouts.statementMs, lock_timeout: timeouts.lockMs, idle_in_transaction_session_timeout: timeouts.idleInTransactionMs }
      : {}),
    query_timeout: timeouts.queryMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: timeouts.keepAliveInitialDelayMs,
  });
  // An idle client losing its connection: pg-pool has already dropped it; the next query reconnects.
  pool.on('error', (error) => logger?.warn({ err: error }, 'database: an idle pooled connection failed and was dropped'));
  /** Every open connection by host (a multi-host URL): a host gone silent has all of its cut at once. */
  const open = new Set<PoolClient>();
  selector?.onSilent((host) => {
    for (const client of open) {
      const on = hostOf(client);
      if (on?.host !== host.host || on.port !== host.port) continue;
      broken.add(client);
      // Its statements would wait for the query timeout: they fail now (503), and idle ones leave the pool.
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    }
  });
  pool.on('remove', (client) => open.delete(client));
  pool.on('connect', (client) => {
    if (selector) open.add(client);
    if (!sessions) {
      const connection = (client as unknown as { connection: { on(event: 'readyForQuery', listener: (message: { status: string }) => void): void } }).connection;
      connection.on('readyForQuery', (message) => transactionStatus.set(client, message.status));
    }
    client.on('error', (error) => {
      broken.add(client);
      const host = hostOf(client);
      if (host) selector?.lost(host, `a connection failed: ${error.message}`);
      logger?.warn({ err: error }, 'database: a pooled connection failed');
    });
  });

  const broken = new WeakSet<PoolClient>();
  const wrappers = new WeakMap<PoolClient, ReturnType<typeof wrap>>();

  /** A session of our own: a statement marked as prepared (prepared.ts) goes as a named query, parsed and planned once per connection. */
  function querySession(client: PoolClient, args: unknown[]): unknown {
    const name = typeof args[0] === 'string' ? preparedNameOf(args[0]) : undefined;
    const call = name ? [{ name, text: args[0], values: args[1] }, ...args.slice(2)] : args;
    return (client.query as (...a: unknown[]) => unknown)(...call);
  }

  /**
   * Behind a transaction pooler: unnamed statements only, and outside a transaction the bounds go
   * with the work in one round trip (folded into BEGIN, or pipelined before a single statement).
   */
  function queryPooled(client: PoolClient, args: unknown[]): unknown {
    const [text, values = []] = args;
    const outside = (transactionStatus.get(client) ?? 'I') === 'I';
    if (outside && typeof text === 'string' && Array.isArray(values) && args.length <= 2) {
      if (values.length === 0 && isTransactionStart(text)) {
        return client.query(beginWithBounds(text, bounds)).then((results) => (Array.isArray(results) ? results[0] : results));
      }
      if (isSingleStatement(text)) return queryBounded(client, bounds, text, values);
    }
    return (client.query as (...a: unknown[]) => unknown)(...args);
  }

  function wrap(client: PoolClient) {
    return {
      query(...args: unknown[]) {
        const result = sessions ? querySession(client, args) : queryPooled(client, args);
        if (result && typeof (result as Promise<unknown>).then === 'function') {
          return (result as Promise<unknown>).catch((error: unknown) => {
            const code = (error as { code?: string }).code;
            if (isDatabaseUnavailable(error) && !code?.match(STATEMENT_ONLY)) {
              // The connection itself is in doubt (lost, or a query the server never answered), or
              // its server no longer takes writes (a standby after a failover): never reuse it; a
              // timed-out query may still be running on it.
              broken.add(client);
              const host = hostOf(client);
              if (host) selector?.lost(host, code === READ_ONLY ? 'it answered read-only (25006)' : `a query failed: ${(error as Error).message}`);
              if ((error as Error).message?.includes('Query read timeout')) {
                (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
              }
            }
            throw error;
          });
        }
        return result;
      },
      release(destroy?: boolean) {
        // A connection to a host that is no longer the chosen one (a failover happened) is not kept.
        const current = selector?.current();
        const moved = current !== undefined && hostOf(client) !== current;
        const drop = destroy || broken.has(client) || moved;
        client.release(drop ? new Error('database connection discarded') : undefined);
      },
      get processID() {
        return (client as unknown as { processID?: number }).processID;
      },
    };
  }

  async function connect() {
    let timer: NodeJS.Timeout | undefined;
    let waitingFor = `no database connection free within ${timeouts.acquireMs} ms (pool of ${pool.options.max})`;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DatabaseUnavailableError(waitingFor)), timeouts.acquireMs);
    });
    let acquiring: Promise<PoolClient> | undefined;
    try {
      // Several hosts and none chosen (a failover under way): find the one to use first, within
      // the same bound; the search goes on for the next request if this one gives up.
      if (selector && !selector.current()) {
        waitingFor = `no database host found within ${timeouts.acquireMs} ms (searching ${selector.target.hosts.length} hosts)`;
        await Promise.race([selector.primary(), timeout]);
        waitingFor = `no database connection free within ${timeouts.acquireMs} ms (pool of ${pool.options.max})`;
      }
      acquiring = pool.connect();
      let client = await Promise.race([acquiring, timeout]);
      // An idle connection to a host that is no longer the chosen one (it went silent, or a failover
      // happened) is not handed out: it goes, and another is taken.
      while (selector && selector.current() !== undefined && !sameHost(hostOf(client), selector.current())) {
        client.release(new Error('database connection to a host no longer chosen'));
        acquiring = pool.connect();
        client = await Promise.race([acquiring, timeout]);
      }
      let w = wrappers.get(client);
      if (!w) {
        w = wrap(client);
        wrappers.set(client, w);
      }
      return w;
    } catch (error) {
      // A connection that arrives after we gave up goes straight back to the pool.
      acquiring?.then((late) => late.release(), () => {});
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** For Kysely's PostgresDialect. */
    kyselyPool: {
      connect,
      end: () => pool.end(),
      options: pool.options,
    },
    pool,
  };
}
