/**
 * The benchmark's load generator, in a worker thread so the clients' own work (undici, JSON) does
 * not share the service's event loop: N keep-alive clients firing POST /api/pix/cash-out until the
 * deadline. Posts back every latency, the status counts and the externalIds answered 201.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { cpf } from '../../test/factories.ts';

const { origin, accounts, label, seconds, clients } = workerData as {
  origin: string;
  accounts: Array<{ id: number; token: string }>;
  label: string;
  seconds: number;
  clients: number;
};

const http = new Pool(origin, { connections: clients + 2, pipelining: 1 });
const latencies: number[] = [];
const statuses: Record<number, number> = {};
const created: string[] = [];
const firstErrors: string[] = [];
const run = Math.random().toString(36).slice(2, 8);
let seq = 0;

async function client(k: number, deadline: number) {
  while (performance.now() < deadline) {
    const account = accounts[(k + seq) % accounts.length]!;
    seq += 1;
    const externalId = `${label}-${run}-${k}-${seq}`;
    const t0 = performance.now();
    const res = await http.request({
      method: 'POST',
      path: '/api/pix/cash-out',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        value: 0.01,
        externalId,
        details: { key: `bench${seq % 1000}@example.com`, keyType: 'EMAIL', name: 'Bench', document: cpf(seq % 100_000) },
      }),
    });
    const text = await res.body.text();
    latencies.push(performance.now() - t0);
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode === 201) created.push(externalId);
    else if (statuses[res.statusCode] === 1) firstErrors.push(`first ${res.statusCode}: ${text.slice(0, 300)}`);
  }
}

const started = performance.now();
const deadline = started + seconds * 1000;
await Promise.all(Array.from({ length: clients }, (_, k) => client(k, deadline)));
const elapsed = (performance.now() - started) / 1000;
await http.close();
parentPort!.postMessage({ latencies, statuses, created, firstErrors, elapsed });
