import type { FastifyRequest } from 'fastify';
import type { AccountAuthContext, SandboxContext } from '../route-contexts.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { authenticateAccount } from './account-auth.ts';
import { hasAdminToken } from './admin-auth.ts';

/**
 * Which account a sandbox call acts on: the admin token with `accountId` in the body, or an
 * account's own bearer token (resolved by the account authenticator, when one is wired).
 */
export async function sandboxAccountId(request: FastifyRequest, c: Pick<SandboxContext, 'config' | 'accounts' | 'accountTokens' | 'testClocks'>, bodyAccountId: number | undefined): Promise<number> {
  if (hasAdminToken(request, c.config.adminToken)) {
    if (bodyAccountId === undefined) throw new ValidationError(['accountId is required when calling with the admin token']);
    await c.accounts.get(bodyAccountId);
    // What the call does to that account runs on its time (its test clock, when it is on one).
    await c.testClocks.enter(bodyAccountId);
    return bodyAccountId;
  }
  const identity = request.identity ?? (await authenticateAccount(request, c));
  if (!identity) {
    throw new DomainError('UNAUTHORIZED', undefined, "Send the account's bearer token, or the admin token with accountId");
  }
  return identity.accountId;
}

/**
 * The sandbox family's guard: the admin token or a valid account token, checked before the body is
 * validated, so an unauthenticated call answers 401 (never a 400 about its body).
 */
export function requireSandboxCaller(c: AccountAuthContext) {
  return async (request: FastifyRequest) => {
    if (hasAdminToken(request, c.config.adminToken)) return;
    const identity = await authenticateAccount(request, c);
    if (!identity) {
      throw new DomainError('UNAUTHORIZED', undefined, "Send the account's bearer token, or the admin token with accountId");
    }
    request.identity = identity;
    await c.testClocks.enter(identity.accountId);
  };
}
