/**
 * The token benchmark's load generator, in a worker thread (as an outside client would be): N
 * keep-alive clients calling POST /api/auth/token until the deadline. Posts back the latencies of
 * 2xx answers only and the status counts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

const { origin, clients, seconds, identities } = workerData as {
  origin: string;
  clients: number;
  seconds: number;
  identities: Array<{ cert: string; clientId: string; clientSecret: string }>;
};

const http = new Pool(origin, { connections: clients + 2, pipelining: 1 });
const latencies: number[] = [];
const statuses: Record<number, number> = {};
const firstErrors: string[] = [];

async function client(k: number, deadline: number) {
  let n = 0;
  while (performance.now() < deadline) {
    const id = identities[(k + n++) % identities.length]!;
    const t0 = performance.now();
    const res = await http.request({
      method: 'POST',
      path: '/api/auth/token',
      headers: { 'content-type': 'application/json', 'x-ssl-client-cert': id.cert },
      body: JSON.stringify({ clientId: id.clientId, clientSecret: id.clientSecret }),
    });
    const text = await res.body.text();
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 200 && res.statusCode < 300) latencies.push(performance.now() - t0);
    else if (statuses[res.statusCode] === 1) firstErrors.push(`first ${res.statusCode}: ${text.slice(0, 300)}`);
  }
}

const started = performance.now();
const deadline = started + seconds * 1000;
await Promise.all(Array.from({ length: clients }, (_, k) => client(k, deadline)));
const elapsed = (performance.now() - started) / 1000;
await http.close();
parentPort!.postMessage({ latencies, statuses, firstErrors, elapsed });
