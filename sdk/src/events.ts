import { PixApiError, PixNetworkError } from './errors.ts';
import type { AnswerOf } from './operation-types.ts';

export type EventPage = AnswerOf<'listEvents'>;
export type PixEvent = EventPage['data'][number];

/**
 * A cursor list (the events API): `await` for the first page as answered, `for await` for every
 * item after the cursor, page after page (`after` = the previous page's `metadata.next`).
 */
export interface CursorList<T, P> extends PromiseLike<P>, AsyncIterable<T> {
  toArray(): Promise<T[]>;
}

export function cursorList<T, P extends { data: T[]; metadata: { hasMore: boolean; next: string | null } }>(
  fetchPage: (after: string | undefined) => Promise<P>,
  after?: string,
): CursorList<T, P> {
  let firstPage: Promise<P> | undefined;
  const pageOne = () => (firstPage ??= fetchPage(after));
  async function* items(): AsyncGenerator<T, void, undefined> {
    let page = await pageOne();
    for (;;) {
      yield* page.data;
      if (!page.metadata.hasMore || !page.metadata.next || page.data.length === 0) return;
      page = await fetchPage(page.metadata.next);
    }
  }
  return {
    then: (onFulfilled, onRejected) => pageOne().then(onFulfilled, onRejected),
    [Symbol.asyncIterator]: () => items(),
    async toArray() {
      const all: T[] = [];
      for await (const item of items()) all.push(item);
      return all;
    },
  };
}

/** One event of the stream: `payload` parsed, `data` the JSON text exactly as sent (the webhook body, byte for byte). */
export interface StreamedEvent {
  id: string;
  type: string;
  payload: unknown;
  data: string;
}

export interface EventStreamOptions {
  /** Only these event types (a list, or names separated by commas). */
  type?: string | string[];
  /** Resume after this event id (the last one received): the events after it, then live. Default: live from now. */
  lastEventId?: string;
  /** Ends the iteration (the loop then finishes normally). */
  signal?: AbortSignal;
  /**
   * A connection that sends nothing (not even the service's heartbeat, every 15 s at most) for this
   * long is taken as dead and replaced. Default 45 000.
   */
  idleTimeoutMs?: number;
  /** Called each time a connection is open (events created from then on will come). */
  onConnect?: (info: { lastEventId: string | undefined }) => void;
  /** Called before each reconnection (after a dropped connection, a restart of the service, ...). */
  onReconnect?: (info: { attempt: number; lastEventId: string | undefined; reason: string }) => void;
}

/** Opens one connection of the stream after `lastEventId`: the answer, or a thrown PixApiError / PixNetworkError. */
export type StreamOpener = (query: { type?: string }, lastEventId: string | undefined, signal: AbortSignal) => Promise<{ response: Response; error?: unknown }>;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });

/**
 * The events stream as an async iterator that never loses or repeats an event across reconnections:
 * each connection after the first sends the last id received as Last-Event-ID. It reconnects after
 * a dropped connection, a silent one, a 429/503 or a restart of the service (back-off up to 5 s);
 * a refusal (400, 403, 404...) is thrown as PixApiError.
 */
export async function* eventStream(open: StreamOpener, options: EventStreamOptions = {}): AsyncGenerator<StreamedEvent, void, undefined> {
  const type = Array.isArray(options.type) ? options.type.join(',') : options.type;
  const idleMs = options.idleTimeoutMs ?? 45_000;
  const outer = options.signal;
  let lastEventId = options.lastEventId;
  for (let attempt = 0; !outer?.aborted; attempt += 1) {
    if (attempt > 0) {
      await sleep(Math.min(5_000, 250 * 2 ** Math.min(attempt - 1, 5)), outer ?? new AbortController().signal);
      if (outer?.aborted) return;
    }
    const connection = new AbortController();
    const abort = () => connection.abort();
    outer?.addEventListener('abort', abort, { once: true });
    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(), idleMs);
    };
    let reason = 'the stream ended';
    try {
      touch();
      const { response, error } = await untilAborted(open(type ? { type } : {}, lastEventId, connection.signal), connection.signal);
      if (!response.ok || !response.body) {
        const refusal = PixApiError.from(response.status, error, response.headers.get('x-request-id') ?? undefined);
        // A busy or restarting service is waited for; anything else is the service's answer.
        if (response.status !== 429 && response.status !== 503 && response.status < 500) throw refusal;
        reason = `${response.status} ${refusal.code}`;
        await response.body?.cancel().catch(() => {});
      } else {
        options.onConnect?.({ lastEventId });
        for await (const event of parseStream(response.body, touch, connection.signal)) {
          lastEventId = event.id;
          attempt = 0;
          yield event;
          if (outer?.aborted) return;
        }
        if (connection.signal.aborted) reason = `no data for ${idleMs} ms`;
      }
    } catch (error) {
      if (error instanceof PixApiError) throw error;
      if (outer?.aborted) return;
      reason = error instanceof PixNetworkError || error instanceof Error ? error.message : String(error);
      if (connection.signal.aborted) reason = `no data for ${idleMs} ms`;
    } finally {
      clearTimeout(idle);
      outer?.removeEventListener('abort', abort);
      connection.abort();
    }
    if (outer?.aborted) return;
    options.onReconnect?.({ attempt: attempt + 1, lastEventId, reason });
  }
}

/**
 * `promise`, or a rejection as soon as `signal` aborts: a connection given up (Ctrl-C, the idle
 * bound) is left even if the fetch under it did not hear the abort.
 */
function untilAborted<T extends { response: Response }>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new Error('aborted'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        // Answered after it was given up: its connection is closed, not left open.
        if (signal.aborted) void value.response.body?.cancel().catch(() => {});
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/**
 * Server-Sent Events (the WHATWG format) from a byte stream; `touch` on every line, comments
 * (heartbeats) included. Ends when `signal` aborts: the reader is cancelled here, whatever the fetch
 * under the body does with its own signal (a heartbeat every few seconds would otherwise keep the
 * loop reading a stream nobody wants).
 */
async function* parseStream(body: ReadableStream<Uint8Array>, touch: () => void, signal: AbortSignal): AsyncGenerator<StreamedEvent, void, undefined> {
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | undefined;
  let type = 'message';
  let data: string[] = [];
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  if (signal.aborted) cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      touch();
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.search(/\r\n|\r|\n/); end >= 0; end = buffer.search(/\r\n|\r|\n/)) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
        if (line === '') {
          if (data.length > 0 && id !== undefined) {
            const text = data.join('\n');
            yield { id, type, data: text, payload: JSON.parse(text) };
          }
          type = 'message';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'event') type = value;
        else if (field === 'data') data.push(value);
      }
    }
  } finally {
    signal.removeEventListener('abort', cancel);
    await reader.cancel().catch(() => {});
  }
}
