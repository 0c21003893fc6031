import type { FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { hasAdminToken } from './admin-auth.ts';

/**
 * Which account a sandbox call acts on: the admin token with `accountId` in the body, or an
 * account's own bearer token (resolved by the account authenticator, when one is wired).
 */
export async function sandboxAccountId(request: FastifyRequest, c: Container, bodyAccountId: number | undefined): Promise<number> {
  if (hasAdminToken(request, c.config.adminToken)) {
    if (bodyAccountId === undefined) throw new ValidationError(['accountId is required when calling with the admin token']);
    await c.accounts.get(bodyAccountId);
    return bodyAccountId;
  }
  const identity = await c.accountTokens?.authenticate(request.headers.authorization);
  if (!identity) {
    throw new DomainError('UNAUTHORIZED', undefined, "Send the account's bearer token, or the admin token with accountId");
  }
  return identity.accountId;
}
