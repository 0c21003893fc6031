import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Real time of arrival (performance.now()). */
  at: number;
}

type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';
/** An answer, now or when a promise settles (a receiver that holds the request as long as a test needs). */
export type Responder = (req: ReceivedRequest, nth: number) => Answer | Promise<Answer>;

/**
 * A real HTTP receiver on 127.0.0.1 (port 0): records every request; each path answers with its
 * responder (default 200 "ok").
 */
export async function startReceiver() {
  const requests: ReceivedRequest[] = [];
  const responders = new Map<string, Responder>();
  const counts = new Map<string, number>();
  const hanging = new Set<import('node:http').ServerResponse>();
  const observers: Array<(req: ReceivedRequest) => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = req.url ?? '/';
      const received: ReceivedRequest = { path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() };
      requests.push(received);
      for (const observe of observers) observe(received);
      const nth = (counts.get(path) ?? 0) + 1;
      counts.set(path, nth);
      const responder: Responder = responders.get(path) ?? (() => ({ status: 200, body: 'ok' }));
      const answer = await responder(received, nth);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** Calls `observe` with every request as it arrives. */
    onEvery(observe: (req: ReceivedRequest) => void) {
      observers.push(observe);
    },
    on(path: string, responder: Responder) {
      responders.set(path, responder);
    },
    to: (path: string) => requests.filter((r) => r.path === path),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
