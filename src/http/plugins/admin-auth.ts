import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { tooManyFailures, type FailureLimits } from '../../services/auth/failure-limits.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when the request carries `Authorization: Bearer <secret>` (compared in constant time). */
export function hasBearerSecret(request: FastifyRequest, secret: string): boolean {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(secret));
}

/** True when the request carries `Authorization: Bearer <ADMIN_TOKEN>`. */
export const hasAdminToken = (request: FastifyRequest, adminToken: string): boolean => hasBearerSecret(request, adminToken);

/**
 * The admin guard. Wrong admin tokens are counted per address (`failure-limits.ts`, decisions 7):
 * once an address has 10 in the last 15 minutes, every admin call from it answers 429 with
 * Retry-After, the right token included, until the oldest leaves the window; a right token from any
 * other address is served. A call without a bearer token checks nothing and counts nothing. In the
 * sandbox a loopback caller is never limited (the container sets that in the failure limits).
 */
export function requireAdmin(adminToken: string, failures: FailureLimits) {
  return async (request: FastifyRequest) => {
    if (!request.headers.authorization?.startsWith('Bearer ')) throw unauthorized();
    const judged = await counted(request, () => failures.judge(failures.adminAttempt({ address: request.ip }), () => hasAdminToken(request, adminToken)));
    if (judged.outcome === 'refused') throw tooManyFailures(judged.retryAfterSeconds);
    if (judged.outcome === 'wrong') {
      request.log.warn({ address: request.ip }, 'wrong admin token');
      throw unauthorized();
    }
  };
}

const unauthorized = () => new DomainError('UNAUTHORIZED', undefined, 'Send Authorization: Bearer <ADMIN_TOKEN>');

/** The counters live in the database: when it cannot answer, 503 (logged), never a 401 or a 500. */
async function counted<T>(request: FastifyRequest, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    request.log.error({ err: error }, 'admin failure counters unavailable');
    throw new DomainError('SERVICE_UNAVAILABLE', { retryAfterSeconds: 1 });
  }
}
