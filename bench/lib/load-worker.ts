/**
 * The load generator, in a worker thread (an outside client would not share the server's event
 * loop): N keep-alive clients calling the plan's request until the deadline, after an uncounted
 * warm-up. Only 2xx answers count (their latencies and their number); every status is counted.
 * Posts back a LoadResult.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { callFor, type Plan } from './requests.ts';
import type { LoadResult } from './load.ts';

const { origin, plan, clients, seconds, warmupSeconds } = workerData as {
  origin: string;
  plan: Plan;
  clients: number;
  seconds: number;
  warmupSeconds: number;
};

const http = new Pool(origin, { connections: clients, pipelining: 1 });
const run = Math.random().toString(36).slice(2, 8);
const result: LoadResult = { okLatencies: [], statuses: {}, warmupStatuses: {}, created: [], firstErrors: [], elapsed: 0 };
let n = 0;
let measuring = false;

async function client(k: number, deadline: number) {
  while (performance.now() < deadline) {
    const call = callFor(plan, run, k, n++);
    const t0 = performance.now();
    const counted = measuring;
    const res = await http.request({ method: call.method, path: call.path, headers: call.headers, ...(call.body !== undefined ? { body: call.body } : {}) });
    const text = await res.body.text();
    const ms = performance.now() - t0;
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const statuses = counted ? result.statuses : result.warmupStatuses;
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (ok && counted) result.okLatencies.push(ms);
    if (res.statusCode === 201 && call.externalId) result.created.push(call.externalId);
    if (!ok && result.firstErrors.length < 5 && !result.firstErrors.some((e) => e.startsWith(`${res.statusCode} `))) {
      result.firstErrors.push(`${res.statusCode} ${text.slice(0, 300)}`);
    }
  }
}

// Warm-up: the same clients, answers not counted in the figures (201s are still remembered: the
// invariants check every 201 stored).
const warmupEnd = performance.now() + warmupSeconds * 1000;
await Promise.all(Array.from({ length: clients }, (_, k) => client(k, warmupEnd)));
measuring = true;
const started = performance.now();
await Promise.all(Array.from({ length: clients }, (_, k) => client(k, started + seconds * 1000)));
result.elapsed = (performance.now() - started) / 1000;
await http.close();
parentPort!.postMessage(result);
