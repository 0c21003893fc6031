import net from 'node:net';
import type { Http2Session } from 'node:http2';
import type { Logger } from 'pino';

/**
 * Restarting without dropping a request (issue 25 item 2). On SIGTERM the service:
 *   1. drains: GET /ready answers 503 at once (a load balancer that polls it stops sending), and
 *      every request is still served, keep-alive as usual, for SHUTDOWN_DELAY_MS;
 *   2. stops accepting connections (a front proxy's next connection is refused, which nginx and
 *      every proxy retry on another instance, even for a POST, since nothing was sent), and from
 *      then on every answer says `Connection: close` (HTTP/2: GOAWAY), so each open connection ends
 *      after its next answer;
 *   3. leaves idle keep-alive connections to their client for up to SHUTDOWN_DELAY_MS more: the
 *      client closing its own idle connection is the only close that cannot race a request it is
 *      sending (the nginx template's upstream `keepalive_timeout` is shorter than the delay). What is
 *      still idle after that is closed; in-flight requests finish;
 *   4. stops the background work (the scheduler lets the steps it runs finish, the relay its
 *      deliveries), closes the database, logs "shutdown complete" and exits 0.
 * Every stage is bounded (main.ts exits 1, saying so, past the bound); a second signal skips the waits.
 */
export interface DrainState {
  /** SIGTERM received: not ready for new traffic (GET /ready), still serving. */
  readonly draining: boolean;
  /** No longer accepting connections: every answer ends its connection. */
  readonly closing: boolean;
  startDraining(): void;
  startClosing(): void;
}

export function createDrainState(): DrainState {
  let draining = false;
  let closing = false;
  return {
    get draining() {
      return draining;
    },
    get closing() {
      return closing;
    },
    startDraining() {
      draining = true;
    },
    startClosing() {
      draining = true;
      closing = true;
    },
  };
}

/** The HTTP server's open HTTP/2 sessions (TLS mode), to send each a GOAWAY when closing. */
export function trackHttp2Sessions(server: net.Server): Set<Http2Session> {
  const sessions = new Set<Http2Session>();
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  return sessions;
}

const openConnections = (server: net.Server) =>
  new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));

/** Resolves after `ms`, or at once when `skip` settles first. */
const pause = (ms: number, skip: Promise<void>) =>
  new Promise<void>((resolve) => {
    if (ms <= 0) return resolve();
    const timer = setTimeout(resolve, ms);
    void skip.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Stages 1 to 3 above: resolves once the server accepts nothing and its connections ended (or the
 * idle ones' grace ran out); the caller then closes the app (in-flight requests, the last idle
 * connections) and the container.
 */
export async function drainConnections(options: {
  server: net.Server;
  state: DrainState;
  sessions: Set<Http2Session>;
  delayMs: number;
  /** Settles on a second signal: the waits end at once. */
  hurry: Promise<void>;
  logger: Logger;
}) {
  const { server, state, delayMs, hurry, logger } = options;
  state.startDraining();
  logger.info({ delayMs }, `draining: GET /ready answers 503; still serving for ${delayMs} ms (SHUTDOWN_DELAY_MS)`);
  await pause(delayMs, hurry);

  state.startClosing();
  // The listening socket only: http.Server#close would also cut idle keep-alive connections at
  // once, racing a request the client may be sending on one of them.
  if (server.listening) net.Server.prototype.close.call(server);
  for (const session of options.sessions) session.close();
  logger.info({ open: await openConnections(server) }, 'no longer accepting connections; each open one closes after its next answer');

  const until = Date.now() + delayMs;
  let hurried = false;
  void hurry.then(() => (hurried = true));
  while (!hurried && Date.now() < until && (await openConnections(server)) > 0) await pause(50, hurry);
}
