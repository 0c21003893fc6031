import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPixAdminClient, createPixClient } from '../../sdk/src/index.ts';

// A full garbage collection on demand: what a long-running `pix listen` gets sooner or later.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * The SDK's event stream ends when it is told to (its signal, its idle bound) even after a garbage
 * collection: Node's fetch links a cloned Request's signal to the original's through a WeakRef only,
 * and the client sends clones (retries), so before the fix an abort after a GC never reached the
 * connection and `pix listen` read heartbeats forever after Ctrl-C (issue 29).
 */
describe('sdk events.stream: aborts reach the connection after a garbage collection', () => {
  let server: Server;
  let url: string;
  /** How each stream request is answered: heartbeats every 50 ms, or headers then silence. */
  let mode: 'heartbeats' | 'silent' = 'heartbeats';
  const open = new Set<IncomingMessage>();
  let streamsOpened = 0;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = req.url!.split('?')[0];
      if (req.method === 'POST' && (path === '/api/auth/token')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ access_token: 'token', token_type: 'Bearer', expires_in: 3600 }));
      }
      if (req.method === 'GET' && (path === '/api/events/stream' || path === '/admin/accounts/7/events/stream')) {
        streamsOpened += 1;
        open.add(req);
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        res.write(': stream open\n\n');
        const beat = mode === 'heartbeats' ? setInterval(() => res.write(': heartbeat\n\n'), 50) : undefined;
        res.on('close', () => {
          clearInterval(beat);
          open.delete(req);
        });
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const until = async (probe: () => boolean, what: string, withinMs = 20_000) => {
    const deadline = Date.now() + withinMs;
    while (!probe()) {
      if (Date.now() > deadline) throw new Error(`${what} (within ${withinMs} ms)`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const account = () => createPixClient({ baseUrl: url, clientId: 'c', clientSecret: 's', certificate: { cert: 'PEM' } });

  it('an aborted signal ends the iteration and closes the connection while heartbeats keep coming', async () => {
    mode = 'heartbeats';
    for (const stream of [
      (signal: AbortSignal, onConnect: () => void) => account().events.stream({ signal, onConnect }),
      (signal: AbortSignal, onConnect: () => void) => createPixAdminClient({ baseUrl: url, adminToken: 't' }).events.stream(7, { signal, onConnect }),
    ]) {
      const controller = new AbortController();
      let connected = false;
      const iteration = (async () => {
        for await (const _event of stream(controller.signal, () => (connected = true))) { /* no events come */ }
        return 'ended';
      })();
      await until(() => connected && open.size === 1, 'the stream is open');
      gc();
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort();
      // Bounded: the heartbeats every 50 ms would keep a connection that never heard the abort alive forever.
      const ended = await Promise.race([iteration, new Promise((resolve) => setTimeout(() => resolve('still reading'), 10_000))]);
      expect(ended).toBe('ended');
      await until(() => open.size === 0, 'the service saw the connection closed');
    }
  }, 60_000);

  it('a connection silent past idleTimeoutMs is replaced (reconnected), not waited on forever', async () => {
    mode = 'silent';
    const before = streamsOpened;
    const controller = new AbortController();
    const reasons: string[] = [];
    let connects = 0;
    const iteration = (async () => {
      for await (const _event of account().events.stream({
        signal: controller.signal,
        idleTimeoutMs: 500,
        onConnect: () => {
          connects += 1;
          if (connects === 1) gc();
        },
        onReconnect: ({ reason }) => reasons.push(reason),
      })) { /* none */ }
    })();
    await until(() => connects >= 2, 'a second connection after the first went silent');
    expect(reasons[0]).toBe('no data for 500 ms');
    expect(streamsOpened - before).toBeGreaterThanOrEqual(2);
    controller.abort();
    await iteration;
    await until(() => open.size === 0, 'every connection closed');
  }, 60_000);
});
