import pg from 'pg';
import type { Logger } from 'pino';
import { describeHost, type DatabaseHost, type DatabaseTarget, type SessionAttrs } from './database-url.ts';
import { DatabaseUnavailableError } from './db-faults.ts';

/**
 * Which host of a multi-host DATABASE_URL new connections go to, the way libpq does it with
 * `target_session_attrs` (and porsager/postgres, pgjdbc's `targetServerType`): hosts are tried in
 * the URL's order, each connection bounded by the connect timeout, and the first whose session has
 * the asked attributes is taken. It is asked once (`SHOW transaction_read_only` and
 * `pg_is_in_recovery()` in one statement, as postgres.js does) and every new pooled connection is
 * asked again (a host can be demoted between two connections).
 *
 * The chosen host is kept until a connection to it is lost or answers read-only (`lost`); the next
 * connection then searches again. One search runs at a time and every waiter shares it; a search
 * that found nothing is not repeated for SEARCH_PAUSE_MS (callers answer 503 meanwhile). A host that
 * failed is tried after the others for RECHECK_MS (pgjdbc's hostRecheckSeconds): a host that no
 * longer answers costs its whole connect timeout, which the primary's clients should not pay on
 * every search while it is down.
 */
export const SEARCH_PAUSE_MS = 250;
export const RECHECK_MS = 10_000;

/** What a session reports about itself. */
interface SessionState {
  readOnly: boolean;
  inRecovery: boolean;
}

const STATE_QUERY = "SELECT pg_catalog.pg_is_in_recovery() AS in_recovery, pg_catalog.current_setting('transaction_read_only') AS read_only";

/** Why a session does not suit the attributes, or undefined when it does (libpq's rules). */
function mismatch(attrs: SessionAttrs, state: SessionState): string | undefined {
  switch (attrs) {
    case 'read-write':
      return state.readOnly ? 'read-only (transaction_read_only is on)' : undefined;
    case 'primary':
      return state.inRecovery ? 'a standby (in recovery)' : undefined;
    case 'read-only':
      return state.readOnly ? undefined : 'read-write';
    case 'standby':
    case 'prefer-standby':
      return state.inRecovery ? undefined : 'a primary (not in recovery)';
    case 'any':
      return undefined;
  }
}

async function stateOf(client: pg.ClientBase): Promise<SessionState> {
  const { rows } = await client.query<{ in_recovery: boolean; read_only: string }>(STATE_QUERY);
  return { inRecovery: rows[0]!.in_recovery, readOnly: rows[0]!.read_only === 'on' };
}

const same = (a: DatabaseHost | undefined, b: DatabaseHost | undefined) => a !== undefined && b !== undefined && a.host === b.host && a.port === b.port;

export interface HostSelector {
  readonly target: DatabaseTarget;
  /** The host new connections go to now, if one is known. */
  current(): DatabaseHost | undefined;
  /** The known host at once, else a search (bounded: each host by the connect timeout). Rejects with DatabaseUnavailableError naming each host's answer. */
  primary(): Promise<DatabaseHost>;
  /** The host a connection made now goes to: the known one, else the last one found, else the first listed. */
  hostForNewConnection(): DatabaseHost;
  /** node-postgres settings for a connection to `host` (its one-host URL). */
  connectionFor(host: DatabaseHost): { connectionString: string };
  /** Checks a new connection's session; rejects (and forgets the host) when it does not suit. */
  verify(client: pg.ClientBase, host: DatabaseHost): Promise<void>;
  /** A connection to `host` was lost or answered read-only: the next connection searches again. */
  lost(host: DatabaseHost, reason: string): void;
  /** `host` stopped answering (liveness-probe.ts): lost, and everything connected to it is cut (`onSilent`). */
  silent(host: DatabaseHost, reason: string): void;
  /** Called with each host declared silent. */
  onSilent(listener: (host: DatabaseHost) => void): void;
}

export function createHostSelector(options: {
  target: DatabaseTarget;
  /** The settings every connection shares (application_name, options, timeouts). */
  connection: pg.ClientConfig;
  connectMs: number;
  queryMs: number;
  logger?: Logger | undefined;
}): HostSelector {
  const { target, logger } = options;
  const attrs = target.sessionAttrs;
  let current: DatabaseHost | undefined;
  let lastFound: DatabaseHost | undefined;
  let searching: Promise<DatabaseHost> | undefined;
  let failedSearch: { at: number; error: DatabaseUnavailableError } | undefined;
  const failedAt = new Map<string, number>();
  const silentListeners: Array<(host: DatabaseHost) => void> = [];
  const key = (h: DatabaseHost) => `${h.host}:${h.port}`;

  const connectionFor = (host: DatabaseHost) => ({ connectionString: target.urlFor(host) });

  /** Hosts that did not fail lately first, in the URL's order; then the others, also in order. */
  function searchOrder(): DatabaseHost[] {
    const now = Date.now();
    const recent = (h: DatabaseHost) => now - (failedAt.get(key(h)) ?? -Infinity) < RECHECK_MS;
    return [...target.hosts.filter((h) => !recent(h)), ...target.hosts.filter(recent)];
  }

  /** 'ok', or what kept this host from serving. */
  async function probe(host: DatabaseHost): Promise<string> {
    const client = new pg.Client({
      ...options.connection,
      ...connectionFor(host),
      connectionTimeoutMillis: options.connectMs,
      query_timeout: options.queryMs,
    });
    client.on('error', () => {}); // a failure here is this probe's answer, reported below
    try {
      await client.connect();
      const why = attrs === 'any' ? undefined : mismatch(attrs, await stateOf(client));
      return why ?? 'ok';
    } catch (error) {
      return (error as Error).message || String(error);
    } finally {
      await client.end().catch(() => {});
    }
  }

  async function search(): Promise<DatabaseHost> {
    const answers: string[] = [];
    const order = searchOrder();
    // prefer-standby: a standby first, else any host that answers.
    let fallback: DatabaseHost | undefined;
    for (const host of order) {
      const answer = await probe(host);
      if (answer === 'ok') {
        failedAt.delete(key(host));
        return found(host);
      }
      if (attrs === 'prefer-standby' && answer.startsWith('a primary')) fallback ??= host;
      else failedAt.set(key(host), Date.now());
      answers.push(`${describeHost(host)}: ${answer}`);
    }
    if (fallback) return found(fallback);
    const error = new DatabaseUnavailableError(`no database host is ${attrs === 'any' ? 'reachable' : `a ${attrs} server`} (${answers.join('; ')})`);
    failedSearch = { at: Date.now(), error };
    logger?.warn({ hosts: answers, targetSessionAttrs: attrs }, 'database: no host to connect to; searching again on the next connection');
    throw error;
  }

  function found(host: DatabaseHost): DatabaseHost {
    failedSearch = undefined;
    if (!same(host, lastFound) && target.hosts.length > 1) {
      logger?.warn({ host: describeHost(host), previous: lastFound && describeHost(lastFound), targetSessionAttrs: attrs }, 'database: connecting to this host from now on');
    }
    current = host;
    lastFound = host;
    return host;
  }

  return {
    target,
    current: () => current,
    primary() {
      if (current) return Promise.resolve(current);
      if (failedSearch && Date.now() - failedSearch.at < SEARCH_PAUSE_MS) return Promise.reject(failedSearch.error);
      searching ??= search().finally(() => {
        searching = undefined;
      });
      return searching;
    },
    hostForNewConnection: () => current ?? lastFound ?? target.hosts[0]!,
    connectionFor,
    async verify(client, host) {
      if (attrs === 'any') return;
      const why = mismatch(attrs, await stateOf(client));
      if (why === undefined || (attrs === 'prefer-standby' && same(host, lastFound))) return;
      this.lost(host, why);
      throw new DatabaseUnavailableError(`the database host ${describeHost(host)} is ${why}; looking for a ${attrs} host`);
    },
    lost(host, reason) {
      failedAt.set(key(host), Date.now());
      if (!same(host, current)) return;
      current = undefined;
      logger?.warn({ host: describeHost(host), reason }, 'database: lost the chosen host; the next connection searches the host list again');
    },
    silent(host, reason) {
      this.lost(host, reason);
      for (const listener of silentListeners) listener(host);
    },
    onSilent(listener) {
      silentListeners.push(listener);
    },
  };
}
