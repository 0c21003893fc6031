import type { FastifyRequest } from 'fastify';
import type { AccountAuthContext } from '../route-contexts.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { callCertificate } from '../client-certificate.ts';
import type { AccessIdentity } from '../../services/auth/access-identity.ts';
import { certificateBindingRefusal } from '../../services/auth/certificate-binding.ts';
import type { Scope } from '../../services/auth/scopes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireAccount` for routes an account calls with its bearer token. */
    identity?: AccessIdentity;
  }
}

/**
 * The account an `Authorization: Bearer` token speaks for, undefined without a valid token. A valid
 * token used without the client certificate it is bound to (another one, or none when
 * `REQUIRE_CERTIFICATE_BOUND_TOKENS` asks for one) answers 401 saying so.
 */
export async function authenticateAccount(request: FastifyRequest, c: Pick<AccountAuthContext, 'config' | 'accountTokens'>): Promise<AccessIdentity | undefined> {
  const identity = await c.accountTokens?.authenticate(request.headers.authorization);
  if (!identity) return undefined;
  const refusal = certificateBindingRefusal(
    identity.certificateFingerprint,
    callCertificate(request, c.config),
    c.config.requireCertificateBoundTokens,
  );
  if (refusal) throw new DomainError('UNAUTHORIZED', undefined, refusal);
  return identity;
}

/**
 * The bearer guard: a route lists it in `onRequest`. A missing, malformed, expired, wrongly signed
 * or revoked-client token answers 401; a token without the route's scope 403. The family's error
 * handler writes the answer in its format.
 */
export function requireAccount(c: AccountAuthContext, scope: Scope) {
  const guard = async (request: FastifyRequest) => {
    const identity = await authenticateAccount(request, c);
    if (!identity) throw new DomainError('UNAUTHORIZED');
    if (!identity.scopes.includes(scope)) {
      throw new DomainError('FORBIDDEN', { requiredScope: scope }, `This route needs the scope ${scope}`);
    }
    request.identity = identity;
    // The account's time for the rest of the request: its test clock's when it is on one (sandbox).
    await c.testClocks.enter(identity.accountId);
  };
  // Read back by `requiredScopeOf`, so the OpenAPI document states each route's scope.
  return Object.assign(guard, { requiredScope: scope });
}

/** The scope a route's `onRequest` (one hook or a list) requires through `requireAccount`, if any. */
export function requiredScopeOf(onRequest: unknown): Scope | undefined {
  const hooks = Array.isArray(onRequest) ? onRequest : [onRequest];
  for (const hook of hooks) {
    const scope = (hook as { requiredScope?: Scope } | undefined)?.requiredScope;
    if (scope) return scope;
  }
  return undefined;
}

/** The caller's account id on a guarded route. */
export function accountIdOf(request: FastifyRequest): number {
  if (!request.identity) throw new DomainError('UNAUTHORIZED');
  return request.identity.accountId;
}
