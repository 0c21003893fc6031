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

/** A request may be sent again when repeating it cannot act twice: safe methods, PUT, DELETE, and any request with an idempotency key. */
export const isRetryable = (request: Request) => SAFE_OR_IDEMPOTENT.has(request.method) || request.headers.has('x-idempotency-key');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * Sends a request, and again on 429, 503 or a network failure when it is retryable, waiting the
 * answer's Retry-After or an exponential backoff with jitter.
 */
export function retrying(send: (request: Request) => Promise<Response>, options: RetryOptions = {}, canRetry: (request: Request) => boolean = isRetryable) {
  const maxRetries = options.maxRetries ?? 3;
  const base = options.baseDelayMs ?? 250;
  const cap = options.maxDelayMs ?? 10_000;
  const backoff = (attempt: number) => Math.random() * Math.min(cap, base * 2 ** attempt);

  return async (request: Request): Promise<Response> => {
    const retryable = canRetry(request);
    for (let attempt = 0; ; attempt += 1) {
      const last = !retryable || attempt >= maxRetries;
      let response: Response;
      try {
        response = await send(last ? request : request.clone());
      } catch (error) {
        if (last) throw new PixNetworkError(`${request.method} ${new URL(request.url).pathname} failed: ${(error as Error).message}`, error);
        await sleep(backoff(attempt));
        continue;
      }
      if (last || (response.status !== 429 && response.status !== 503)) return response;
      const wait = Math.min(cap, retryAfterMs(response) ?? backoff(attempt));
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
