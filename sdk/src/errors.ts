import type { components } from './openapi.ts';

export type ApiErrorBody = components['schemas']['ApiError'];
export type ShortErrorBody = components['schemas']['ShortError'];
export type OAuthErrorBody = components['schemas']['OAuthError'];

/**
 * A refused request, with the spec's code: `code` is the business code of the /api envelope
 * (`PIX_INSUFFICIENT_BALANCE`, ...), the OAuth `error_code`/`error`, or `HTTP_<status>` for the short
 * envelope, which has none. `body` is the envelope as the service sent it.
 */
export class PixApiError extends Error {
  override readonly name = 'PixApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: ApiErrorBody | ShortErrorBody | OAuthErrorBody | undefined,
    /** The X-Request-Id of the answer (the errorId of the /api envelope): quote it to support. */
    readonly requestId: string | undefined,
  ) {
    super(message);
  }

  /** The envelope's `details` (the field refused, the limit reached, `existingTransactionId` of a duplicate...), when it has some. */
  get details(): Record<string, unknown> | undefined {
    const details = (this.body as { details?: unknown } | undefined)?.details;
    return details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined;
  }

  /** An error from an answer's status and parsed body, whichever family's envelope it is. */
  static from(status: number, body: unknown, requestId: string | undefined): PixApiError {
    const b = (body ?? {}) as Record<string, unknown>;
    const text = (value: unknown) => (Array.isArray(value) ? value.join('; ') : typeof value === 'string' ? value : undefined);
    if (typeof b.code === 'string') {
      return new PixApiError(status, b.code, text(b.message) ?? `HTTP ${status}`, b as ApiErrorBody, requestId);
    }
    if (typeof b.error === 'string' && 'error_description' in b) {
      const code = typeof b.error_code === 'string' ? b.error_code : b.error;
      return new PixApiError(status, code, text(b.error_description) ?? b.error, b as OAuthErrorBody, requestId);
    }
    if ('statusCode' in b) return new PixApiError(status, `HTTP_${status}`, text(b.message) ?? `HTTP ${status}`, b as ShortErrorBody, requestId);
    return new PixApiError(status, `HTTP_${status}`, `HTTP ${status}`, undefined, requestId);
  }
}

/** The service could not be reached (after the retries), or answered something that is not HTTP JSON. */
export class PixNetworkError extends Error {
  override readonly name = 'PixNetworkError';
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
  }
}
