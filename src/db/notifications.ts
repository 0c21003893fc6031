import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Logger } from 'pino';
import type { DbTimeouts } from './pg-pool.ts';
import type { DatabaseHost } from './database-url.ts';

/**
 * Receives NOTIFY messages on the channels `<name>@<current schema>` (see migration 680). `notify`
 * gets the plain name and the payload. `listening` reports whether notifications are being received
 * right now: while false (the listening connection was lost), some may be missed, so whoever trusts
 * them must look for itself; it turns true again once the connection is back and listening.
 */
export interface ListenHandlers {
  notify(name: string, payload: string | undefined): void;
  listening?(on: boolean): void;
}
export type Listen = (names: string[], handlers: ListenHandlers) => Promise<() => Promise<void>>;

const qualified = (name: string, schema: string) => `${name}@${schema}`;
const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** PGlite: its own listener (notifications arrive after the notifying transaction commits). It runs
 * `LISTEN <name>` as given: the name is quoted (it holds an '@'). */
export function pgliteListen(pglite: PGlite): Listen {
  return async (names, handlers) => {
    const schema = (await pglite.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
    const stops = await Promise.all(names.map((name) => pglite.listen(quote(qualified(name, schema)), (payload) => handlers.notify(name, payload))));
    handlers.listening?.(true);
    return async () => {
      handlers.listening?.(false);
      for (const stop of stops) await stop().catch(() => {});
    };
  };
}

/**
 * No session to LISTEN on (a transaction pooler in front and no DATABASE_LISTEN_URL): never
 * listening, so whoever relies on notifications looks for itself (the scheduler and the relay poll,
 * the access memory stays off).
 */
export function noListen(logger?: Logger): Listen {
  return async (_names, handlers) => {
    logger?.info('database: no LISTEN session (DATABASE_PREPARED_STATEMENTS=false without DATABASE_LISTEN_URL); polling for due work');
    handlers.listening?.(false);
    return async () => {};
  };
}

/**
 * PostgreSQL: one dedicated connection per instance that only LISTENs (a pooled connection cannot:
 * it is handed to others). It is bounded like the pool's (connect timeout, keepalive); when it is
 * lost it reconnects with a growing delay (at most 5 s), reporting `listening(false)` meanwhile.
 * `open` names the host each (re)connection goes to: with a multi-host DATABASE_URL, the primary
 * the host selector found (LISTEN fails on a standby, and that failure is reported as a loss too).
 */
export function postgresListen(config: {
  open: () => Promise<{ config: pg.ClientConfig; lost(reason: string): void; host?: DatabaseHost }>;
  timeouts: DbTimeouts;
  logger?: Logger | undefined;
  /** A multi-host URL: hosts declared silent (liveness-probe.ts); the listener on one reconnects at once. */
  onSilent?: ((listener: (host: DatabaseHost) => void) => void) | undefined;
}): Listen {
  return async (names, handlers) => {
    let stopped = false;
    let client: pg.Client | undefined;
    let clientHost: DatabaseHost | undefined;
    config.onSilent?.((host) => {
      if (!client || clientHost?.host !== host.host || clientHost.port !== host.port) return;
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    });
    let retry: NodeJS.Timeout | undefined;
    let failures = 0;

    async function connect(): Promise<void> {
      const target = await config.open();
      const c = new pg.Client({
        ...target.config,
        connectionTimeoutMillis: config.timeouts.connectMs,
        query_timeout: config.timeouts.queryMs,
        keepAlive: true,
        keepAliveInitialDelayMillis: config.timeouts.keepAliveInitialDelayMs,
      });
      c.on('error', () => {}); // reported by 'end' below
      c.on('end', () => {
        if (client !== c) return;
        target.lost('the notification listener lost its connection');
        lost();
      });
      try {
        await c.connect();
        const schema = (await c.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
        const byChannel = new Map(names.map((name) => [qualified(name, schema), name]));
        c.on('notification', (message) => {
          const name = byChannel.get(message.channel);
          if (name) handlers.notify(name, message.payload);
        });
        for (const channel of byChannel.keys()) await c.query(`LISTEN ${quote(channel)}`);
      } catch (error) {
        target.lost(`the notification listener could not listen: ${(error as Error).message}`);
        await c.end().catch(() => {}); // never leave a half-set-up connection open
        throw error;
      }
      if (stopped) {
        await c.end().catch(() => {});
        return;
      }
      client = c;
      clientHost = target.host;
      failures = 0;
      handlers.listening?.(true);
    }

    function lost() {
      client = undefined;
      handlers.listening?.(false);
      if (stopped) return;
      failures += 1;
      const delay = Math.min(5_000, 250 * 2 ** failures);
      if (failures === 1) config.logger?.warn('database: the notification listener lost its connection; reconnecting');
      retry = setTimeout(() => {
        connect().catch(() => lost());
      }, delay);
    }

    try {
      await connect();
    } catch (error) {
      // Start without it: the safety poll still finds everything, just later.
      config.logger?.warn({ err: error }, 'database: the notification listener could not connect; relying on polling until it does');
      lost();
    }
    return async () => {
      stopped = true;
      handlers.listening?.(false);
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    };
  };
}
