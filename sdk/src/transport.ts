import { PixNetworkError } from './errors.ts';

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff delay in ms, doubled each retry, with full jitter (default 250). */
  baseDelayMs?: number;
  /** Upper bound of one wait, also of a Retry-After (default 10 000). */
  maxDelayMs?: number;
}

const SAFE_OR_IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * POST routes whose body names an `externalId` the service keeps unique per account: a repeat of one
 * that already acted is refused as a duplicate, so it can never move money twice. `externalIdOf`
 * finds the field in the body.
 */
const EXTERNAL_ID_ROUTES: Array<{ path: RegExp; externalIdOf: (body: Record<string, unknown>) => unknown }> = [
  { path: /^\/api\/pix\/cash-in$/, externalIdOf: (body) => (body.transaction as Record<string, unknown> | undefined)?.externalId },
  { path: /^\/api\/pix\/cash-out$/, externalIdOf: (body) => body.externalId },
  { path: /^\/api\/pix\/cash-out-qrcode$/, externalIdOf: (body) => body.externalId },
  { path: /^\/api\/pix\/refund-in\/[^/]+$/, externalIdOf: (body) => body.externalId },
];

/** Routes that take `x-idempotency-key`: the client adds one when the caller did not, so they can be retried. */
export const IDEMPOTENCY_KEY_ROUTES = [/^\/dict\/pix$/];

/**
 * A request may be sent again when repeating it cannot act twice: safe methods, PUT, DELETE, any
 * request with an idempotency key, and a POST whose externalId the service deduplicates.
 */
export async function isRetryable(request: Request): Promise<boolean> {
  if (SAFE_OR_IDEMPOTENT.has(request.method) || request.headers.has('x-idempotency-key')) return true;
  if (request.method !== 'POST') return false;
  const pathname = new URL(request.url).pathname;
  const route = EXTERNAL_ID_ROUTES.find((r) => r.path.test(pathname));
  if (!route || !request.body) return false;
  try {
    const body = (await request.clone().json()) as Record<string, unknown>;
    const externalId = route.externalIdOf(body ?? {});
    return typeof externalId === 'string' && externalId.length > 0;
  } catch {
    return false;
  }
}

/** What happened to the request behind an answer: how many times it was sent, and whether an earlier attempt may have acted. */
export interface Attempts {
  sent: number;
  /** An earlier attempt failed on the network: the service may have acted on it without our knowing. */
  outcomeUnknown: boolean;
}
const attempts = new WeakMap<Response, Attempts>();
/** How the answer was obtained (one attempt when the response did not go through `retrying`). */
export const attemptsOf = (response: Response): Attempts => attempts.get(response) ?? { sent: 1, outcomeUnknown: false };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A copy of `request` to send while the original is kept for another attempt, aborted with it. Not
 * `request.clone()` alone: Node's fetch (undici) ties a clone's signal to the original's through a
 * WeakRef only, so once a garbage collection ran, aborting the caller's signal no longer reached the
 * clone being sent (a stream read on forever after Ctrl-C or its idle timeout). A Request built with
 * `signal` holds that link for as long as it lives.
 */
export function copyOf(request: Request): Request {
  return new Request(request.clone(), { signal: request.signal });
}

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * Sends a request, and again on 429, 503 or a network failure when it is retryable, waiting the
 * answer's Retry-After or an exponential backoff with jitter. Any other answer (a 400, a 500) is
 * returned at once: it is the service's word on the request.
 */
export function retrying(
  send: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
  canRetry: (request: Request) => boolean | Promise<boolean> = isRetryable,
) {
  const maxRetries = options.maxRetries ?? 3;
  const base = options.baseDelayMs ?? 250;
  const cap = options.maxDelayMs ?? 10_000;
  const backoff = (attempt: number) => Math.random() * Math.min(cap, base * 2 ** attempt);

  return async (request: Request): Promise<Response> => {
    const retryable = await canRetry(request);
    let outcomeUnknown = false;
    for (let attempt = 0; ; attempt += 1) {
      const last = !retryable || attempt >= maxRetries;
      let response: Response;
      try {
        response = await send(last ? request : copyOf(request));
      } catch (error) {
        if (last) throw new PixNetworkError(`${request.method} ${new URL(request.url).pathname} failed: ${(error as Error).message}`, error);
        outcomeUnknown = true;
        await sleep(backoff(attempt));
        continue;
      }
      if (last || (response.status !== 429 && response.status !== 503)) {
        attempts.set(response, { sent: attempt + 1, outcomeUnknown });
        return response;
      }
      const wait = Math.min(cap, retryAfterMs(response) ?? backoff(attempt));
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
