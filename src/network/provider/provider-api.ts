import type { Logger } from 'pino';
import { backoffDelay, type BackoffPolicy } from './backoff.ts';
import { CircuitOpenError, type CircuitBreaker } from './circuit-breaker.ts';
import { ProviderTransportError, type HttpAnswer, type ProviderHttp } from './http-client.ts';
import { createTokenCache, type TokenCache } from './token-cache.ts';
import type { ProviderErrorBody, TokenAnswer } from './types.ts';

/** No answer we can trust (timeouts, connection errors, 5xx, the circuit open): try again in `retryAfterMs`. */
export class ProviderUnavailable extends Error {
  constructor(
    readonly reason: string,
    readonly retryAfterMs: number,
  ) {
    super(`the provider is unavailable: ${reason}`);
    this.name = 'ProviderUnavailable';
  }
}

/** The provider refused our credentials or certificate (a configuration to fix, not a payment's fault). */
export class ProviderAuthRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`the provider refused our credentials: ${status} ${code}`);
    this.name = 'ProviderAuthRefused';
  }
}

export interface RetryPolicy extends BackoffPolicy {
  /** Tries per call, the first included. */
  attempts: number;
}

const isRetryableStatus = (status: number) => status >= 500 || status === 429;

/**
 * Calls to the provider's API: a bearer token from the cache (renewed once on a 401), the client
 * certificate also in `X-SSL-Client-Cert` when configured, and the provider's trouble (timeouts,
 * connection errors, 5xx) retried with backoff and jitter behind the circuit breaker. Every call
 * answers the provider's definitive answer (2xx or 4xx) or throws ProviderUnavailable /
 * ProviderAuthRefused. Nothing here retries a 4xx: that is the provider's word.
 */
export function createProviderApi(deps: {
  http: ProviderHttp;
  breaker: CircuitBreaker;
  credentials: { clientId: string; clientSecret: string };
  /** The certificate PEM, URL-encoded, when PROVIDER_CERT_HEADER=true. */
  certHeader: string | undefined;
  retry: RetryPolicy;
  logger: Logger;
  /** Each exchange's duration and outcome (provider_call_duration_seconds). */
  observeCall?: ((seconds: number, outcome: '2xx' | '4xx' | '5xx' | 'error') => void) | undefined;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const certHeaders: Record<string, string> = deps.certHeader ? { 'x-ssl-client-cert': deps.certHeader } : {};

  /** One exchange through the breaker: the provider's trouble counts against it, any other answer for it. */
  async function exchange(input: { method: 'GET' | 'POST'; path: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number }): Promise<HttpAnswer> {
    deps.breaker.enter();
    let answer: HttpAnswer;
    const started = performance.now();
    const took = () => (performance.now() - started) / 1000;
    try {
      answer = await deps.http.send(input);
    } catch (error) {
      deps.observeCall?.(took(), 'error');
      deps.breaker.failure(String((error as Error).message));
      throw error;
    }
    deps.observeCall?.(took(), answer.status >= 500 ? '5xx' : answer.status >= 400 ? '4xx' : '2xx');
    if (answer.status >= 500) deps.breaker.failure(`${input.method} ${input.path}: HTTP ${answer.status}`);
    else deps.breaker.success();
    return answer;
  }

  /** Retries the provider's trouble with backoff; answers its definitive answer. */
  async function withRetries<T>(what: string, attempts: number, once: () => Promise<T | 'retry'>): Promise<T> {
    let reason = 'no attempt made';
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await once();
        if (result !== 'retry') return result;
        reason = `${what}: the provider answered 5xx or 429`;
      } catch (error) {
        if (error instanceof CircuitOpenError) throw new ProviderUnavailable(`${what}: ${error.message}`, Math.max(0, error.retryAt.getTime() - now()));
        if (error instanceof ProviderUnavailable) throw error;
        if (!(error instanceof ProviderTransportError)) throw error;
        reason = error.message;
      }
      if (attempt >= attempts) break;
      const delay = backoffDelay(attempt, deps.retry, deps.random);
      deps.logger.debug({ what, attempt, delayMs: delay, reason }, 'provider call failed; retrying');
      await sleep(delay);
    }
    const circuit = deps.breaker.snapshot();
    // Asked again a little later, and not before an open circuit lets a trial call through.
    const soon = deps.retry.maxMs + backoffDelay(3, deps.retry, deps.random);
    const retryAfterMs = Math.max(soon, (circuit.retryAt?.getTime() ?? 0) - now());
    deps.logger.warn({ what, attempts, reason, circuit: circuit.state }, 'the provider gave no usable answer');
    throw new ProviderUnavailable(reason, retryAfterMs);
  }

  const tokens: TokenCache = createTokenCache({
    now,
    async fetch() {
      return withRetries('POST /api/auth/token', deps.retry.attempts, async () => {
        const answer = await exchange({ method: 'POST', path: '/api/auth/token', body: deps.credentials, headers: certHeaders });
        if (isRetryableStatus(answer.status)) return 'retry' as const;
        const body = answer.body as Partial<TokenAnswer> & ProviderErrorBody;
        if (answer.status !== 201 && answer.status !== 200) throw new ProviderAuthRefused(answer.status, errorCodeOf(body) ?? `HTTP_${answer.status}`);
        if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
          throw new ProviderUnavailable('POST /api/auth/token: the answer has no access_token/expires_in', deps.retry.maxMs);
        }
        return { accessToken: body.access_token, expiresInSeconds: body.expires_in };
      });
    },
  });

  /** An authenticated call; answers the provider's definitive answer (2xx or 4xx). */
  async function call(method: 'GET' | 'POST', path: string, body?: unknown, options: { attempts?: number; timeoutMs?: number } = {}): Promise<HttpAnswer> {
    let renewed = false;
    return withRetries(`${method} ${path.split('?')[0]}`, options.attempts ?? deps.retry.attempts, async () => {
      for (;;) {
        const token = await tokens.get();
        const answer = await exchange({
          method,
          path,
          ...(body !== undefined ? { body } : {}),
          headers: { ...certHeaders, authorization: `Bearer ${token}` },
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        });
        // An expired or revoked token: one renewal, then the provider's answer stands.
        if (answer.status === 401 && !renewed) {
          renewed = true;
          tokens.invalidate(token);
          continue;
        }
        if (answer.status === 401 || answer.status === 403) {
          throw new ProviderAuthRefused(answer.status, errorCodeOf(answer.body as ProviderErrorBody) ?? `HTTP_${answer.status}`);
        }
        return isRetryableStatus(answer.status) ? ('retry' as const) : answer;
      }
    });
  }

  return { call, tokens, breaker: deps.breaker };
}

/** The provider's stable code of an error answer: the business code, else the envelope's code. */
export function errorCodeOf(body: ProviderErrorBody | undefined): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  return (typeof body.errorCode === 'string' && body.errorCode) || (typeof body.code === 'string' && body.code) || undefined;
}

export function errorMessageOf(body: ProviderErrorBody | undefined, fallback: string): string {
  const m = body?.message;
  if (Array.isArray(m)) return m.join('; ') || fallback;
  return typeof m === 'string' && m !== '' ? m : fallback;
}

export type ProviderApi = ReturnType<typeof createProviderApi>;
