import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { startInstance, type Instance } from './instances-kit.ts';

/**
 * Issue 25 item 2: on SIGTERM /ready answers 503 at once, the service keeps serving for
 * SHUTDOWN_DELAY_MS (5000 by default in production), then stops accepting, ends each open
 * connection with `Connection: close` on its last answer, and exits 0 with a closing log line.
 * The real service (src/main.ts), production mode, as users start it; the drain behind nginx
 * under load: test/postgres/rolling-restart.test.ts.
 */

/** One keep-alive HTTP/1.1 connection: each `get` is answered on the same socket. */
function keepAliveConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  let buffer = '';
  let waiting: ((answer: { status: number; headers: string; body: string }) => void) | undefined;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk) => {
    buffer += chunk;
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const headers = buffer.slice(0, end);
    const length = Number(/content-length: (\d+)/i.exec(headers)?.[1] ?? 0);
    if (buffer.length < end + 4 + length) return;
    const body = buffer.slice(end + 4, end + 4 + length);
    buffer = buffer.slice(end + 4 + length);
    const resolve = waiting;
    waiting = undefined;
    resolve?.({ status: Number(headers.split(' ')[1]), headers: headers.toLowerCase(), body });
  });
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    closed,
    async get(path: string) {
      await connected;
      const answer = new Promise<{ status: number; headers: string; body: string }>((resolve) => (waiting = resolve));
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      return answer;
    },
    get isClosed() {
      return socket.destroyed;
    },
  };
}

/** A request on a connection of its own; 'refused' when nothing accepts it. */
async function fresh(port: number, path: string): Promise<number | 'refused'> {
  try {
    return (await fetch(`http://127.0.0.1:${port}${path}`, { headers: { connection: 'close' } })).status;
  } catch {
    return 'refused';
  }
}

describe('the drain state, as GET /ready and every answer read it (in process)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  it('draining: /ready 503 at once (database not even asked), other routes served as usual; closing: every answer says Connection: close', async () => {
    h.c.scheduler.start();
    try {
      expect((await h.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      h.c.drain.startDraining();
      const ready = await h.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.json()).toEqual({
        status: 'not_ready',
        checks: { database: 'not checked: shutting down', migrations: 'not checked: shutting down', scheduler: 'not checked: shutting down', draining: 'shutting down' },
      });
      const health = await h.app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.headers.connection).not.toBe('close');
      h.c.drain.startClosing();
      const last = await h.app.inject({ method: 'GET', url: '/health' });
      expect(last.statusCode).toBe(200);
      expect(last.headers.connection).toBe('close');
    } finally {
      await h.c.scheduler.stop();
    }
  });
});

describe('SIGTERM: drain, then close (issue 25 item 2)', () => {
  let service: Instance | undefined;
  afterAll(async () => {
    service?.process.kill('SIGKILL');
  });

  it('production default: /ready 503 at once, still serving for 5 s, then refusing new connections, Connection: close on the last answer, exit 0 with the closing line', async () => {
    // SHUTDOWN_DELAY_MS unset: production's default (5000).
    service = await startInstance('drain', '', { DATA_DIR: 'memory://', ALLOW_EMBEDDED_DATABASE: 'true', SHUTDOWN_DELAY_MS: '' });
    const { port } = service;
    const kept = keepAliveConnection(port);
    expect((await kept.get('/ready')).status).toBe(200);
    const signalledAt = Date.now();
    // SIGTERM, then the exit code (SIGKILL only past 15 s).
    const exited = service.stop();
    // /ready says "not ready" at once (a signal takes a moment to arrive; nothing else waits).
    let ready = await fresh(port, '/ready');
    while (ready === 200 && Date.now() - signalledAt < 1_000) ready = await fresh(port, '/ready');
    expect(ready).toBe(503);
    const readyBody = await (await fetch(`http://127.0.0.1:${port}/ready`)).json();
    expect(readyBody).toMatchObject({ status: 'not_ready', checks: { draining: 'shutting down' } });
    // /health (liveness) stays 200: the process is alive and serving.
    expect(await fresh(port, '/health')).toBe(200);

    // Still serving during the delay, new connections and kept-alive ones alike, without closing them.
    const during: Array<number | 'refused'> = [];
    while (Date.now() - signalledAt < 3_500) {
      during.push(await fresh(port, '/.well-known/jwks.json'));
      const onKept = await kept.get('/health');
      expect(onKept.status).toBe(200);
      expect(onKept.headers).not.toContain('connection: close');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(during.length).toBeGreaterThan(3);
    expect(during.every((status) => status === 200), `answers during the delay: ${during.join(', ')}`).toBe(true);
    expect(service.process.exitCode).toBeNull();

    // After the delay: no new connection is accepted (a proxy retries those elsewhere)...
    let next = await fresh(port, '/health');
    while (next !== 'refused' && Date.now() - signalledAt < 8_000) {
      await new Promise((r) => setTimeout(r, 100));
      next = await fresh(port, '/health');
    }
    expect(next).toBe('refused');
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(4_900);
    // ...while an open connection is still answered, once more, and closed with that answer.
    const last = await kept.get('/health');
    expect(last.status).toBe(200);
    expect(last.headers).toContain('connection: close');
    await kept.closed;

    // The connection gone, the process exits 0 without waiting for the rest of its bound.
    expect(await exited).toBe(0);
    const lines = service.lines();
    const messages = lines.map((l) => String(l.msg));
    const at = (text: string) => messages.findIndex((m) => m.startsWith(text));
    expect(at('shutting down')).toBeGreaterThanOrEqual(0);
    expect(at('draining')).toBeGreaterThan(at('shutting down'));
    expect(at('no longer accepting connections')).toBeGreaterThan(at('draining'));
    expect(at('shutdown complete')).toBeGreaterThan(at('no longer accepting connections'));
    expect(lines[at('shutdown complete')]).toMatchObject({ level: 30, signal: 'SIGTERM' });
  }, 180_000);
});
