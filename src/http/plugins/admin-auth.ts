import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors/domain-error.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when the request carries `Authorization: Bearer <ADMIN_TOKEN>` (compared in constant time). */
export function hasAdminToken(request: FastifyRequest, adminToken: string): boolean {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(adminToken));
}

export function requireAdmin(adminToken: string) {
  return async (request: FastifyRequest) => {
    if (!hasAdminToken(request, adminToken)) {
      throw new DomainError('UNAUTHORIZED', undefined, 'Send Authorization: Bearer <ADMIN_TOKEN>');
    }
  };
}
