import { request } from 'node:http';

export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/**
 * A Server-Sent Events client over a real connection, as a browser's EventSource parses the stream
 * (fields per line, an empty line ends an event, `:` lines are comments), keeping the raw text too.
 */
export async function openSse(url: string, headers: Record<string, string> = {}) {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let raw = '';
  let buffer = '';
  let ended = false;
  const waiters: Array<() => void> = [];
  const notify = () => waiters.splice(0).forEach((w) => w());

  const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, resolve);
    req.on('error', reject);
    req.end();
  });
  const status = response.statusCode ?? 0;
  response.setEncoding('utf8');
  let current: SseEvent = { id: undefined, event: undefined, data: '' };
  let dataLines: string[] = [];
  response.on('data', (chunk: string) => {
    raw += chunk;
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line === '') {
        if (dataLines.length > 0 || current.id !== undefined) events.push({ ...current, data: dataLines.join('\n') });
        current = { id: undefined, event: undefined, data: '' };
        dataLines = [];
      } else if (line.startsWith(':')) {
        comments.push(line);
      } else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') current.id = value;
        else if (field === 'event') current.event = value;
        else if (field === 'data') dataLines.push(value);
      }
    }
    notify();
  });
  response.on('end', () => {
    ended = true;
    notify();
  });
  response.on('close', () => {
    ended = true;
    notify();
  });

  async function until(check: () => boolean, what: string, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`SSE: timed out waiting for ${what}; got ${events.length} events, ended=${ended}; raw: ${raw.slice(-500)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 100);
        waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  return {
    status,
    headers: response.headers,
    events,
    comments,
    get raw() {
      return raw;
    },
    get ended() {
      return ended;
    },
    /** Waits until `n` events arrived in all. */
    waitForEvents: (n: number, timeoutMs?: number) => until(() => events.length >= n, `${n} events`, timeoutMs),
    waitForComment: (pattern: RegExp, timeoutMs?: number) => until(() => comments.some((c) => pattern.test(c)), `a comment ${pattern}`, timeoutMs),
    waitForEnd: (timeoutMs?: number) => until(() => ended, 'the end of the stream', timeoutMs),
    close() {
      response.destroy();
    },
  };
}

export type SseClient = Awaited<ReturnType<typeof openSse>>;
