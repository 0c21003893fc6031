/**
 * The webhook benchmark's receiver, in a worker thread (a real receiver is another process: its HTTP
 * work does not share the relay's event loop). URLs under /fail answer 500, the others 200. It
 * counts the answers it gave by class and reports the first 2xx arrival of each (webhook-id, URL)
 * in absolute milliseconds (comparable across threads).
 */
import { Worker } from 'node:worker_threads';

const SOURCE = `
const { createServer } = require('node:http');
const { parentPort } = require('node:worker_threads');
let ok = 0, failed = 0;
const seen = new Set();
let batch = [];
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url.startsWith('/fail')) { failed += 1; res.writeHead(500).end('failing on purpose'); return; }
    const key = req.headers['webhook-id'] + ' ' + req.url;
    res.writeHead(200).end('ok');
    ok += 1;
    if (!seen.has(key)) { seen.add(key); batch.push([key, performance.timeOrigin + performance.now()]); }
  });
});
server.keepAliveTimeout = 10000;
setInterval(() => { parentPort.postMessage({ ok, failed, arrivals: batch }); batch = []; }, 20).unref();
parentPort.on('message', (m) => { if (m === 'close') { server.closeAllConnections(); server.close(() => process.exit(0)); } });
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

export async function startReceiver() {
  /** First 2xx arrival (absolute ms) per "webhook-id URL". */
  const arrivals = new Map<string, number>();
  const counts = { ok: 0, failed: 0 };
  const worker = new Worker(SOURCE, { eval: true });
  const port = await new Promise<number>((resolve) => {
    worker.on('message', (m: { port?: number; ok?: number; failed?: number; arrivals?: Array<[string, number]> }) => {
      if (m.port) resolve(m.port);
      if (m.ok !== undefined) counts.ok = m.ok;
      if (m.failed !== undefined) counts.failed = m.failed;
      for (const [key, at] of m.arrivals ?? []) arrivals.set(key, at);
    });
  });
  return {
    base: `http://127.0.0.1:${port}`,
    arrivals,
    /** Answers given so far: 2xx (deliveries received) and 500 (the failing URL). */
    counts: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.postMessage('close');
      }),
  };
}

/** Absolute milliseconds, comparable across threads. */
export const nowMs = () => performance.timeOrigin + performance.now();
