/**
 * Sequential probes: one client, one request at a time, each request traced on the server (its
 * async context, its arrival and its answer; see statement-tap.ts), so what one request costs is
 * seen without other requests' work mixed in.
 */
import type { Server } from 'node:http';
import { Pool } from 'undici';
import { callFor, type Plan } from '../lib/requests.ts';
import { median } from '../lib/stats.ts';
import { recordIntervals, roundTripsInARow, statementsSoFar, takeKinds, traceRequests, type Interval, type RequestTrace } from '../lib/statement-tap.ts';

export interface ProbeResult {
  requests: number;
  statuses: Record<string, number>;
  /** Medians per request (2xx only). */
  onPath: number;
  inARow: number;
  inWindow: number;
  inARowInWindow: number;
  /** The largest per request (2xx only). */
  maxOnPath: number;
  maxInARow: number;
  /** Every statement counted from the first request to `settle()` returning, per 2xx. */
  perRequestTotal: number;
  /** Every statement from the first request to `settle()` returning, by kind (when counted by kind). */
  kinds: Map<string, number>;
  /** externalIds answered 201 (warm-up included), for the invariants. */
  created: string[];
}

/**
 * Sends `n` requests of `plan` one after another (after `warmup` untraced ones), then awaits
 * `settle` (e.g. settlement and events) before reading the statement count.
 */
export async function probe(origin: string, server: Server, plan: Plan, n: number, warmup: number, settle: () => Promise<unknown>): Promise<ProbeResult> {
  const http = new Pool(origin, { connections: 1, pipelining: 1 });
  const run = `probe${Math.random().toString(36).slice(2, 6)}`;
  const created: string[] = [];
  const send = async (i: number) => {
    const call = callFor(plan, run, 0, i);
    const res = await http.request({ method: call.method, path: call.path, headers: call.headers, ...(call.body !== undefined ? { body: call.body } : {}) });
    await res.body.text();
    if (res.statusCode === 201 && call.externalId) created.push(call.externalId);
    return res.statusCode;
  };
  try {
    for (let i = 0; i < warmup; i++) await send(i);
    await settle();
    const traces: RequestTrace[] = [];
    const untrace = traceRequests(server, (t) => traces.push(t));
    recordIntervals(true);
    takeKinds();
    const before = statementsSoFar();
    const statuses: Record<string, number> = {};
    try {
      for (let i = warmup; i < warmup + n; i++) {
        const status = await send(i);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
      await settle();
    } finally {
      untrace();
    }
    const total = statementsSoFar() - before;
    const kinds = takeKinds();
    const all = recordIntervals(false);
    const ok = traces.filter((t) => t.status >= 200 && t.status < 300);
    // Sent between the request's arrival and its answer: in its async context (work it scheduled
    // that runs after the answer, such as a wake-up of the job loop, is not on its path), or from any source.
    const sentDuring = (t: RequestTrace, statements: readonly Interval[]) => statements.filter((s) => s.start >= t.start && s.start <= t.end);
    const onPath = ok.map((t) => sentDuring(t, t.statements));
    const inWindow = ok.map((t) => sentDuring(t, all));
    return {
      requests: n,
      statuses,
      onPath: median(onPath.map((s) => s.length)),
      inARow: median(onPath.map(roundTripsInARow)),
      inWindow: median(inWindow.map((s) => s.length)),
      inARowInWindow: median(inWindow.map(roundTripsInARow)),
      maxOnPath: Math.max(0, ...onPath.map((s) => s.length)),
      maxInARow: Math.max(0, ...onPath.map(roundTripsInARow)),
      perRequestTotal: total / Math.max(1, ok.length),
      kinds,
      created,
    };
  } finally {
    await http.close();
  }
}
