import pg from 'pg';
import type { Logger } from 'pino';
import { describeHost, type DatabaseHost } from './database-url.ts';
import type { HostSelector } from './host-selector.ts';

/**
 * With several hosts (a multi-host DATABASE_URL), a primary that goes silent (no reset, no answer:
 * a host frozen or cut off) must be left in seconds, not after the 12 s query timeout. TCP
 * keepalives alone cannot do it on Linux (libuv probes once a second, ten times, after the idle
 * delay), so a probe asks the chosen host `SELECT 1` every PROBE_EVERY_MS on a connection of its
 * own and gives it PROBE_ANSWER_MS to answer. Silence (no answer, or no connection within that
 * time) makes the host silent (`selector.silent`): the selector forgets it, and everything connected
 * to it is cut at once (the pool's connections, the listener), so the next request searches the
 * host list and lands on the host that answers: left within PROBE_EVERY_MS + PROBE_ANSWER_MS plus
 * one connect to the next host (issue 31: within 3 s).
 */
export const PROBE_EVERY_MS = 1_000;
export const PROBE_ANSWER_MS = 1_000;

export function startLivenessProbe(options: {
  selector: HostSelector;
  /** The session settings of the service's connections (application name, options). */
  connection: pg.ClientConfig;
  logger?: Logger | undefined;
  everyMs?: number;
  answerMs?: number;
}): { stop(): Promise<void> } {
  const { selector } = options;
  const everyMs = options.everyMs ?? PROBE_EVERY_MS;
  const answerMs = options.answerMs ?? PROBE_ANSWER_MS;
  let client: pg.Client | undefined;
  let clientHost: DatabaseHost | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const drop = () => {
    const c = client;
    client = undefined;
    clientHost = undefined;
    // Never wait for a silent host to answer a goodbye.
    (c as unknown as { connection?: { stream?: { destroy(): void } } } | undefined)?.connection?.stream?.destroy();
    c?.end().catch(() => {});
  };

  /** Resolves 'ok' when the host answered within the bound, else why not. */
  async function ask(host: DatabaseHost): Promise<string> {
    if (!client || clientHost !== host) {
      drop();
      const c = new pg.Client({ ...options.connection, ...selector.connectionFor(host), connectionTimeoutMillis: answerMs, keepAlive: true });
      c.on('error', () => {}); // its failures are this probe's answers
      client = c;
      clientHost = host;
      await c.connect();
    }
    await client.query('SELECT 1');
    return 'ok';
  }

  async function tick() {
    const host = selector.current();
    if (!host) return;
    let answered: string | undefined;
    const asking = ask(host).then(
      () => (answered = 'ok'),
      (error: Error) => (answered = `it failed: ${error.message}`),
    );
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([asking, new Promise<void>((resolve) => (timeout = setTimeout(resolve, answerMs)))]);
    clearTimeout(timeout);
    // A busy process reads late: an answer already waiting in the socket is read before the verdict.
    if (answered === undefined) await new Promise((resolve) => setImmediate(resolve));
    if (answered === 'ok' || stopped || selector.current() !== host) return;
    const reason = answered ?? `no answer to the liveness probe within ${answerMs} ms`;
    drop();
    options.logger?.warn({ host: describeHost(host), reason }, 'database: the chosen host went silent; leaving it');
    selector.silent(host, reason);
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      tick().finally(schedule);
    }, everyMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      drop();
    },
  };
}
