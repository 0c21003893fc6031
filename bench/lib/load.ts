/** Runs a load (load-worker.ts) against an origin and returns what it measured. */
import { Worker } from 'node:worker_threads';
import { loadAverage } from './stats.ts';
import type { Plan } from './requests.ts';

export interface LoadResult {
  /** Latencies (ms) of the 2xx answers of the measured period, in arrival order. */
  okLatencies: number[];
  /** Every status answered in the measured period, by code. */
  statuses: Record<string, number>;
  /** Every status answered during the warm-up (not in the figures). */
  warmupStatuses: Record<string, number>;
  /** externalIds answered 201 (warm-up included). */
  created: string[];
  /** The first answer of each non-2xx status (at most 5). */
  firstErrors: string[];
  /** Seconds from the measured period's start until its last answer. */
  elapsed: number;
}

export interface LoadOptions {
  clients: number;
  seconds: number;
  warmupSeconds: number;
}

export async function runLoad(origin: string, plan: Plan, options: LoadOptions) {
  const entry = new URL('./load-worker.ts', import.meta.url).href;
  const loadBefore = loadAverage();
  const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`, {
    eval: true,
    workerData: { origin, plan, ...options },
  });
  const result = await new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load worker exited (${code}) without a result`)));
  });
  await worker.terminate();
  const ok = result.okLatencies.length;
  const sorted = [...result.okLatencies].sort((a, b) => a - b);
  return { ...result, sorted, ok, okPerSecond: ok / result.elapsed, loadBefore, loadAfter: loadAverage() };
}

export type MeasuredLoad = Awaited<ReturnType<typeof runLoad>>;
