import type { FastifyReply } from 'fastify';
import { DomainError } from '../../../domain/errors/domain-error.ts';

/** An RFC 6749 section 5.2 error raised by the OAuth route itself (grant type, client authentication). */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

// The shared token checks, answered the OAuth way. Failed certificate authentication of the client is
// `invalid_client` (RFC 8705 section 2), so the certificate and credential refusals are all 401.
const MAPPING: Partial<Record<string, { status: number; error: string }>> = {
  PUB_CERT_HEADER_MISSING: { status: 400, error: 'invalid_request' },
  PUB_CERT_MALFORMED_PEM: { status: 400, error: 'invalid_request' },
  PUB_REQUEST_BODY_INVALID: { status: 400, error: 'invalid_request' },
  PUB_CERT_NOT_YET_VALID: { status: 401, error: 'invalid_client' },
  PUB_CERT_EXPIRED: { status: 401, error: 'invalid_client' },
  PUB_CERT_NOT_REGISTERED: { status: 401, error: 'invalid_client' },
  PUB_INVALID_CREDENTIALS: { status: 401, error: 'invalid_client' },
  PUB_CERT_NOT_AUTHORIZED_FOR_ACCOUNT: { status: 401, error: 'invalid_client' },
  AUTH_SCOPE_NOT_GRANTED: { status: 400, error: 'invalid_scope' },
  PUB_AUTH_UPSTREAM_ERROR: { status: 502, error: 'server_error' },
  PUB_AUTH_UPSTREAM_UNAVAILABLE: { status: 503, error: 'temporarily_unavailable' },
  // RFC 6749 has no code for "too many attempts"; slow_down (RFC 8628, in the OAuth error registry) is
  // the registered one that says "wait before trying again", with Retry-After saying how long.
  RATE_LIMITED: { status: 429, error: 'slow_down' },
};

/** The RFC 6749 status and body of a refusal; undefined when it is not one of ours to map. */
export function oauthAnswerOf(failure: unknown): { status: number; body: Record<string, unknown> } | undefined {
  if (failure instanceof OAuthError) return { status: failure.status, body: { error: failure.error, error_description: failure.message } };
  if (!(failure instanceof DomainError) || !MAPPING[failure.code]) return undefined;
  const mapped = MAPPING[failure.code]!;
  return {
    status: mapped.status,
    body: {
      error: mapped.error,
      error_description: failure.message,
      error_code: failure.code,
      ...(typeof failure.details?.hint === 'string' ? { hint: failure.details.hint } : {}),
    },
  };
}

/**
 * Writes `{error, error_description, error_code?, hint?}`; false when the error is not one of ours to
 * map (the family's error handler then answers it).
 */
export function sendOAuthError(reply: FastifyReply, failure: unknown): boolean {
  const answer = oauthAnswerOf(failure);
  if (!answer) return false;
  const { status, body } = answer;
  reply.code(status).headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
  // RFC 6749 section 5.2: a 401 names the authentication scheme the client may use.
  if (status === 401) reply.header('www-authenticate', 'Basic realm="pix-account-service"');
  const retryAfter = failure instanceof DomainError ? failure.details?.retryAfterSeconds : undefined;
  if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
  void reply.type('application/json; charset=utf-8').send(body);
  return true;
}
