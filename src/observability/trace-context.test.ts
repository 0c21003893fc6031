import { asyncLocalStorage } from '@fastify/request-context';
import { describe, expect, it } from 'vitest';
import { currentTrace, outgoingTraceparent, outsideRequest, parseTraceparent } from './trace-context.ts';

const TRACE = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', flags: '00' };
const inRequest = <T>(work: () => T) => asyncLocalStorage.run({ trace: TRACE } as never, work);

describe('W3C trace context', () => {
  it('parses a valid traceparent and refuses malformed ones', () => {
    expect(parseTraceparent(`00-${TRACE.traceId}-00f067aa0ba902b7-01`)).toEqual({ traceId: TRACE.traceId, flags: '01' });
    expect(parseTraceparent(`00-${TRACE.traceId}-00f067aa0ba902b7-01, 00-${TRACE.traceId}-00f067aa0ba902b8-01`)).toBeUndefined();
    expect(parseTraceparent(undefined)).toBeUndefined();
  });

  it('an outgoing traceparent keeps the request\'s trace and its sampled flag, with a new span; else a fresh sampled trace', () => {
    const inside = inRequest(() => outgoingTraceparent());
    expect(inside).toMatch(new RegExp(`^00-${TRACE.traceId}-[0-9a-f]{16}-00$`));
    const fresh = outgoingTraceparent();
    expect(fresh).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(fresh).not.toContain(TRACE.traceId);
    expect(outgoingTraceparent('0af7651916cd43dd8448eb211c80319c')).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
  });

  it('work started outside the request (a timer armed while serving it) does not inherit its trace', async () => {
    const seen = await inRequest(
      () =>
        new Promise<Array<string | undefined>>((resolve) => {
          const inherited = currentTrace()?.traceId;
          outsideRequest(() => setTimeout(() => resolve([inherited, currentTrace()?.traceId]), 1));
        }),
    );
    expect(seen).toEqual([TRACE.traceId, undefined]);
  });
});
