/**
 * Counts every statement this process sends to a database, below Kysely: node-postgres's
 * `Client.prototype.query` (the pool's connections, the LISTEN connection, raw `pool.query`, Kysely)
 * and PGlite's `query`/`exec`/`transaction`. One call is one statement and one round trip (pg does
 * not pipeline; an `exec` with several statements is one call). BEGIN/COMMIT sent as queries count.
 *
 * The benchmark's own queries (setup, waiting for settlement, invariant checks) run inside `quiet()`
 * and are not counted. `traceRequests` ties statements to the HTTP request whose async context
 * issued them (AsyncLocalStorage), with their start and end times, to count the round trips a
 * request waits on in a row.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface Interval {
  start: number;
  end: number;
}

export interface RequestTrace extends Interval {
  method: string;
  url: string;
  status: number;
  /** Statements issued in this request's async context. */
  statements: Interval[];
}

interface Context {
  quiet?: true;
  request?: RequestTrace;
}

const als = new AsyncLocalStorage<Context>();
let total = 0;
let countKinds = false;
const kinds = new Map<string, number>();
/** All counted statements with their times, while `recordIntervals` is on. */
let intervals: Interval[] | undefined;

/** "insert transactions", "select accounts", "begin", "with ... update accounts" ... */
export function kindOf(text: string): string {
  const flat = text.replace(/^\s*\/\*.*?\*\//, '').replace(/\s+/g, ' ').trim();
  const verb = (/^\w+/.exec(flat)?.[0] ?? '?').toLowerCase();
  if (verb === 'with') {
    const parts = [...flat.matchAll(/\b(insert into|update|delete from|from)\s+("?[\w.]+"?)/gi)]
      .filter((m) => !/^(set|of|skip|nowait|\()$/i.test(m[2]!))
      .map(
      (m) => `${m[1]!.toLowerCase() === 'from' ? 'select' : m[1]!.toLowerCase().split(' ')[0]} ${m[2]!.replaceAll('"', '')}`,
    );
    return `with (${[...new Set(parts)].slice(0, 5).join(', ')})`;
  }
  const table = /\b(?:from|into|update)\s+("?[\w.]+"?)/i.exec(flat)?.[1];
  return table ? `${verb} ${table.replaceAll('"', '')}` : flat.length <= 40 ? flat.toLowerCase() : verb;
}

function count(text: unknown): Interval | undefined {
  total += 1;
  if (countKinds) {
    const config = text as { text?: unknown } | undefined;
    const key = typeof text === 'string' ? kindOf(text) : typeof config?.text === 'string' ? kindOf(config.text) : '(submittable)';
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  const request = als.getStore()?.request;
  if (!intervals && !request) return undefined;
  const interval = { start: performance.now(), end: NaN };
  intervals?.push(interval);
  request?.statements.push(interval);
  return interval;
}

const ended = (interval: Interval | undefined) => {
  if (interval) interval.end = performance.now();
};

type Fn = (...args: unknown[]) => unknown;

/** Wraps a query function: counts the call, and notes when its answer arrives (promise or callback). */
function tap(original: Fn): Fn {
  return function tapped(this: unknown, ...args: unknown[]) {
    if (als.getStore()?.quiet) return original.apply(this, args);
    const first = args[0] as string | { text?: string } | undefined;
    const interval = count(typeof first === 'string' ? first : first?.text);
    const last = args.length - 1;
    if (interval && typeof args[last] === 'function') {
      const callback = args[last] as Fn;
      args[last] = function (this: unknown, ...cbArgs: unknown[]) {
        ended(interval);
        return callback.apply(this, cbArgs);
      };
    }
    const result = original.apply(this, args);
    if (interval && result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(
        () => ended(interval),
        () => ended(interval),
      );
    }
    return result;
  };
}

let installed = false;

/** Installs the taps (once per process). Call before any database is opened. */
export function installStatementTap() {
  if (installed) return;
  installed = true;
  pg.Client.prototype.query = tap(pg.Client.prototype.query as Fn) as typeof pg.Client.prototype.query;
  const proto = PGlite.prototype as unknown as Record<string, Fn>;
  proto.query = tap(proto.query!);
  proto.exec = tap(proto.exec!);
  // A PGlite transaction: BEGIN and COMMIT/ROLLBACK, and each statement of its handle.
  const transaction = proto.transaction!;
  proto.transaction = function (this: unknown, callback: unknown) {
    if (als.getStore()?.quiet) return transaction.call(this, callback);
    count('BEGIN');
    const wrapped = async (tx: Record<string, Fn>) => {
      const handle = Object.create(tx) as Record<string, Fn>;
      handle.query = tap(tx.query!.bind(tx));
      handle.exec = tap(tx.exec!.bind(tx));
      handle.sql = tap(tx.sql!.bind(tx));
      return (callback as Fn)(handle);
    };
    const result = transaction.call(this, wrapped) as Promise<unknown>;
    return result.finally(() => count('COMMIT'));
  };
}

/** Runs `fn` without counting its statements (the benchmark's own queries). */
export function quiet<T>(fn: () => T): T {
  return als.run({ quiet: true }, fn);
}

/** Statements counted so far, and by kind when `countByKind(true)` was called. */
export function statementsSoFar(): number {
  return total;
}

export function countByKind(on: boolean) {
  countKinds = on;
}

export function takeKinds(): Map<string, number> {
  const copy = new Map(kinds);
  kinds.clear();
  return copy;
}

/** While on, every counted statement's start and end are kept (to find the ones in a time window). */
export function recordIntervals(on: boolean): Interval[] {
  const kept = intervals ?? [];
  intervals = on ? [] : undefined;
  return kept;
}

/**
 * Runs each request the server receives in its own async context, so the statements it issues are
 * tied to it; `done` gets the trace once the answer is handed to the socket. Returns the undo.
 */
export function traceRequests(server: Server, done: (trace: RequestTrace) => void): () => void {
  const listeners = server.listeners('request') as Fn[];
  server.removeAllListeners('request');
  const traced = (req: { method?: string; url?: string }, res: { statusCode: number; once(event: 'finish', f: () => void): void }) => {
    const trace: RequestTrace = { method: req.method ?? '', url: req.url ?? '', status: 0, start: performance.now(), end: NaN, statements: [] };
    res.once('finish', () => {
      trace.end = performance.now();
      trace.status = res.statusCode;
      done(trace);
    });
    als.run({ request: trace }, () => {
      for (const listener of listeners) listener.call(server, req, res);
    });
  };
  server.on('request', traced);
  return () => {
    server.removeListener('request', traced);
    for (const listener of listeners) server.on('request', listener as never);
  };
}

/**
 * The longest chain of statements one after another (each starting after the previous answered):
 * the round trips a request waits on in a row. Statements running side by side count once.
 */
export function roundTripsInARow(statements: readonly Interval[]): number {
  let chain = 0;
  let lastEnd = -Infinity;
  for (const s of [...statements].sort((a, b) => (Number.isNaN(a.end) ? Infinity : a.end) - (Number.isNaN(b.end) ? Infinity : b.end))) {
    if (s.start >= lastEnd) {
      chain += 1;
      lastEnd = Number.isNaN(s.end) ? Infinity : s.end;
    }
  }
  return chain;
}
