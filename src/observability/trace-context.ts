import { randomBytes } from 'node:crypto';
import { asyncLocalStorage, requestContext } from '@fastify/request-context';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the trace a request came in with, kept
 * for the length of the request (AsyncLocalStorage, @fastify/request-context), so what the request
 * causes further on (a provider call, an event and hence its webhook deliveries) carries its trace
 * id. This service records no spans itself: it logs the trace id and passes it on.
 */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** The incoming trace flags (2 hex digits); only "sampled" (bit 0) is passed on. */
  readonly flags: string;
}

declare module '@fastify/request-context' {
  interface RequestContextData {
    trace?: TraceContext;
  }
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZERO = /^0+$/;

/**
 * A `traceparent` header, validated as the W3C specification says: version `ff` is invalid, version
 * `00` has exactly four fields, ids are lowercase hex and not all zero. A malformed one (or several
 * headers, which Node joins with a comma) answers undefined and is ignored.
 */
export function parseTraceparent(header: unknown): TraceContext | undefined {
  if (typeof header !== 'string') return undefined;
  const match = TRACEPARENT.exec(header);
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(parentId)) return undefined;
  return { traceId, flags };
}

/** The trace of the request being served, if it came with a valid `traceparent`. */
export function currentTrace(): TraceContext | undefined {
  return requestContext.get('trace');
}

const randomHex = (bytes: number) => {
  for (;;) {
    const hex = randomBytes(bytes).toString('hex');
    if (!ALL_ZERO.test(hex)) return hex;
  }
};

/** A new trace id: for work no traced request caused (stored with an event so each retry shares it). */
export const newTraceId = () => randomHex(16);

/**
 * The `traceparent` of one outgoing call: the given trace (the event's, or the current request's)
 * with a new span id, or a fresh trace. The sampled flag is the caller's when the trace came in,
 * else set: we record nothing, so the receiver is free to record its part.
 */
export function outgoingTraceparent(traceId?: string, trace: TraceContext | undefined = currentTrace()): string {
  const id = traceId ?? trace?.traceId ?? newTraceId();
  const sampled = trace && trace.traceId === id ? (parseInt(trace.flags, 16) & 1 ? '01' : '00') : '01';
  return `00-${id}-${randomHex(8)}-${sampled}`;
}

/** A trace as stored with a payment's work (job payloads, a transaction's metadata); anything else is undefined. */
export function traceFrom(value: unknown): TraceContext | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { traceId, flags } = value as { traceId?: unknown; flags?: unknown };
  if (typeof traceId !== 'string' || !/^[0-9a-f]{32}$/.test(traceId) || ALL_ZERO.test(traceId)) return undefined;
  if (typeof flags !== 'string' || !/^[0-9a-f]{2}$/.test(flags)) return undefined;
  return { traceId, flags };
}

/**
 * Runs `work` in a stored trace (issue 31 item 4: a payment's later steps carry the trace of the
 * request that created it): what it calls, schedules or emits sees it as the current trace. Without
 * one, `work` runs in the context it is called from.
 */
export function withTrace<T>(trace: TraceContext | undefined, work: () => T): T {
  // The store holds the request-context data (the package types it as its accessor object).
  // The rest of the context stays (an account's test clock, src/services/test-clocks/account-time.ts).
  return trace ? asyncLocalStorage.run({ ...(asyncLocalStorage.getStore() ?? {}), trace } as never, work) : work();
}

/**
 * Runs `work` outside any request's trace: background loops whose timers may be armed while a request
 * is served (the scheduler's wake-ups) must not lend that request's trace to other work.
 */
export function outsideRequest<T>(work: () => T): T {
  return asyncLocalStorage.exit(work);
}
