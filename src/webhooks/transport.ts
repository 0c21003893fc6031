import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { checkAddress, checkAddresses } from './address-policy.ts';

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const EXCERPT_BYTES = 1024;

/** The outcome of one HTTP attempt; `statusCode` null when no HTTP answer came. */
export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

export interface OutgoingRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** A refused destination (SSRF guard): the attempt fails without any connection being made. */
export class BlockedDestinationError extends Error {
  override name = 'BlockedDestinationError';
}

/**
 * The production resolver: resolves the name, refuses it when any address is not public, and hands
 * the checked addresses to the socket, so the connection goes to exactly what was checked (a DNS
 * answer that changes between check and connect cannot swap it).
 */
function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
) {
  dnsLookup(hostname, { all: true, family: options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : (options.family as 0 | 4 | 6 | undefined) ?? 0 }, (error, addresses) => {
    if (error) return callback(error, []);
    const verdict = checkAddresses(addresses);
    if (!verdict.allowed) return callback(new BlockedDestinationError(`refused destination ${hostname}: ${verdict.reason}`), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
}

function describeError(error: unknown, timeoutMs: number): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { name?: string; message?: string; code?: string; cause?: unknown };
    if (e.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
    if (e.name === 'BlockedDestinationError') return e.message!;
    const text = e.message || e.code || String(current);
    if (!parts.includes(text)) parts.push(text);
    current = e.cause;
  }
  return parts.join(': ').slice(0, 1000) || 'request failed';
}

function findBlocked(error: unknown): BlockedDestinationError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (current instanceof BlockedDestinationError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The webhook HTTP client (undici): a POST with a 10 s limit on the whole attempt, redirects never
 * followed (a 3xx is an answer like any other non-2xx), the first 1 KiB of the answer kept.
 * In production the destination must be HTTPS and resolve only to public addresses.
 */
export function createWebhookTransport(options: { mode: 'sandbox' | 'production'; timeoutMs?: number }) {
  const production = options.mode === 'production';
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const dispatcher = new Agent({
    keepAliveTimeout: 4_000,
    ...(production ? { connect: { lookup: guardedLookup as never } } : {}),
  });

  function preflight(target: string): string | null {
    if (!production) return null;
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return `refused destination ${target}: not a valid URL`;
    }
    if (url.protocol !== 'https:') return `refused destination ${target}: production delivers over HTTPS only`;
    // An IP literal is never resolved, so the guarded resolver would not see it: check it here.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const verdict = checkAddress(host);
      if (!verdict.allowed) return `refused destination ${host}: ${verdict.reason}`;
    }
    return null;
  }

  async function send(out: OutgoingRequest): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const refused = preflight(out.url);
    if (refused) return { statusCode: null, durationMs: elapsed(), responseExcerpt: null, error: refused };
    try {
      const response = await request(out.url, {
        method: 'POST',
        body: out.body,
        headers: out.headers,
        dispatcher,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of response.body) {
          chunks.push(chunk as Buffer);
          size += (chunk as Buffer).length;
          if (size >= EXCERPT_BYTES) break;
        }
      } catch {
        // The status is what counts; a body cut short only shortens the excerpt.
      }
      const excerpt = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES));
      return { statusCode: response.statusCode, durationMs: elapsed(), responseExcerpt: excerpt, error: null };
    } catch (error) {
      const blocked = findBlocked(error);
      return { statusCode: null, durationMs: elapsed(), responseExcerpt: null, error: blocked ? blocked.message : describeError(error, timeoutMs) };
    }
  }

  return {
    send,
    async close() {
      await dispatcher.close();
    },
  };
}

export type WebhookTransport = ReturnType<typeof createWebhookTransport>;
