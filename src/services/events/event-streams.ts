import { PassThrough } from 'node:stream';
import type { Logger } from 'pino';
import type { EventType } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { EventPosition, StoredEvent } from '../../webhooks/events.repo.ts';
import type { EventLog } from './event-log.service.ts';

/** A comment line at least this often on every stream (the contract: at least every 15 s). */
export const HEARTBEAT_MS = 10_000;
/** How often open streams look for new events when no wake-up came (the bound on their delay). */
export const STREAM_POLL_MS = 500;
/** Live streams one account may hold open on one instance. */
export const MAX_STREAMS_PER_ACCOUNT = 5;
const PAGE = 200;
/** A stream whose client reads slower than this much buffered text is not fed until it catches up. */
const MAX_BUFFERED = 1024 * 1024;

interface Stream {
  accountId: number;
  types: EventType[] | undefined;
  position: EventPosition;
  body: PassThrough;
  lastWrite: number;
  /** More events may be waiting (a full page, or a pump skipped): look again at the next tick. */
  behind: boolean;
  closed: boolean;
  /** Called once the stream ended (client gone, shutdown): frees the account's slot. */
  onClose: Array<() => void>;
}

/** One event as Server-Sent Events: its id, its type and the exact webhook body (a data line per line of it). */
export function sseFrame(event: StoredEvent): string {
  const data = event.body.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join('\n');
  return `id: ${event.eventId}\nevent: ${event.type}\n${data}\n\n`;
}

/**
 * Live event streams (GET /api/events/stream, issue 29). One loop per instance serves every open
 * stream: while any is open it asks the database for the oldest running transaction every
 * STREAM_POLL_MS (or at once when a delivery's notification wakes it), and only when that moved does
 * each stream read its account's next events (the set the events API may show changes only then:
 * src/webhooks/events.repo.ts). A stream writes its events in the API's order and moves its cursor
 * past each, so a client resuming with the last id it got (Last-Event-ID) loses and repeats nothing.
 * Every stream gets a comment at least every HEARTBEAT_MS. When the service closes (drain) every
 * stream ends after the event it is writing: the client reconnects elsewhere with Last-Event-ID.
 */
export function createEventStreams(deps: {
  events: Pick<EventLog, 'after' | 'horizon'>;
  drain: { readonly closing: boolean };
  logger: Logger;
  /** Tests: a shorter heartbeat. */
  heartbeatMs?: number;
}) {
  const heartbeatMs = deps.heartbeatMs ?? HEARTBEAT_MS;
  const streams = new Set<Stream>();
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let lastHorizon: string | undefined;

  function end(stream: Stream) {
    if (stream.closed) return;
    stream.closed = true;
    streams.delete(stream);
    for (const done of stream.onClose.splice(0)) done();
    stream.body.end();
  }

  function write(stream: Stream, text: string) {
    stream.body.write(text);
    stream.lastWrite = Date.now();
  }

  async function pump(stream: Stream) {
    if (stream.body.writableLength > MAX_BUFFERED) {
      stream.behind = true;
      return;
    }
    const events = await deps.events.after(stream.accountId, stream.position, stream.types, PAGE);
    if (stream.closed) return;
    for (const event of events) {
      write(stream, sseFrame(event));
      stream.position = event.position;
    }
    stream.behind = events.length === PAGE;
  }

  async function tick() {
    if (deps.drain.closing) {
      for (const stream of [...streams]) end(stream);
      return;
    }
    const horizon = await deps.events.horizon();
    const moved = horizon !== lastHorizon;
    lastHorizon = horizon;
    for (const stream of [...streams]) {
      if (moved || stream.behind) await pump(stream);
      if (!stream.closed && Date.now() - stream.lastWrite >= heartbeatMs) write(stream, ': heartbeat\n\n');
    }
  }

  function ensureLoop() {
    loop ??= (async () => {
      while (streams.size > 0) {
        try {
          await tick();
        } catch (error) {
          // The database is away: the streams stay open (heartbeats go on) and look again next tick.
          deps.logger.warn({ err: error }, 'event streams: reading new events failed; retrying');
          for (const stream of streams) if (Date.now() - stream.lastWrite >= heartbeatMs) write(stream, ': heartbeat\n\n');
        }
        if (streams.size === 0) break;
        const behind = [...streams].some((s) => s.behind);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, behind ? 0 : Math.min(STREAM_POLL_MS, heartbeatMs));
          function done() {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          }
          wake = done;
        });
      }
      loop = undefined;
      lastHorizon = undefined;
    })();
  }

  return {
    /**
     * Opens a stream of the account's events after `from` (of `types`, or all): answers its body
     * (text/event-stream) and `close` (the client went away). More than MAX_STREAMS_PER_ACCOUNT open
     * at once on this instance is a 429.
     */
    open(accountId: number, input: { from: EventPosition; types?: EventType[] | undefined }) {
      if (deps.drain.closing) throw new DomainError('SERVICE_UNAVAILABLE', { retryAfterSeconds: 1 }, 'The service is shutting down; reconnect (with Last-Event-ID)');
      const open = [...streams].filter((s) => s.accountId === accountId).length;
      if (open >= MAX_STREAMS_PER_ACCOUNT) {
        throw new DomainError('RATE_LIMITED', { retryAfterSeconds: 5 }, `At most ${MAX_STREAMS_PER_ACCOUNT} event streams may be open at once per account; close one first`);
      }
      const stream: Stream = {
        accountId,
        types: input.types,
        position: input.from,
        body: new PassThrough(),
        lastWrite: Date.now(),
        behind: true,
        closed: false,
        onClose: [],
      };
      streams.add(stream);
      // The first bytes at once: the client knows the stream is open (events from now on are its).
      write(stream, ': stream open\n\n');
      stream.body.on('close', () => end(stream));
      ensureLoop();
      wake?.();
      return {
        body: stream.body,
        close: () => end(stream),
        onClose: (done: () => void) => (stream.closed ? done() : stream.onClose.push(done)),
      };
    },
    /** A delivery was queued (NOTIFY): there may be new events, look now. */
    wakeUp() {
      wake?.();
    },
    /** Ends every stream (shutdown); the loop then stops. */
    async closeAll() {
      for (const stream of [...streams]) end(stream);
      wake?.();
      await loop;
    },
    /** Open streams (metrics, tests). */
    get openCount() {
      return streams.size;
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
