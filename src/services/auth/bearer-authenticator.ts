import type { Kysely } from 'kysely';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { DB } from '../../db/schema.ts';
import type { AccessIdentity, AccountTokenAuthenticator } from './access-identity.ts';
import type { TokenService } from './token.service.ts';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Resolves `Authorization: Bearer <jwt>`: one of our keys signed it, it has not expired on the service
 * clock, and the credential and certificate it was issued for are still active (revoking either one
 * ends its tokens at once). A database failure is not the caller's fault: 503, never a 401.
 */
export function createBearerAuthenticator(deps: { db: Kysely<DB>; tokens: TokenService }): AccountTokenAuthenticator {
  return {
    async authenticate(header): Promise<AccessIdentity | undefined> {
      const match = header ? BEARER.exec(header) : null;
      if (!match) return undefined;
      try {
        const subject = await deps.tokens.verify(match[1]!);
        if (!subject) return undefined;
        const active = await deps.db
          .selectFrom('credentials')
          .innerJoin('certificates', 'certificates.account_id', 'credentials.account_id')
          .select('credentials.client_id')
          .where('credentials.client_id', '=', subject.clientId)
          .where('credentials.account_id', '=', subject.accountId)
          .where('credentials.revoked_at', 'is', null)
          .where('certificates.fingerprint', '=', subject.certificateFingerprint)
          .where('certificates.revoked_at', 'is', null)
          .executeTakeFirst();
        if (!active) return undefined;
        return { accountId: subject.accountId, clientId: subject.clientId, scopes: subject.scopes };
      } catch {
        throw new DomainError('SERVICE_UNAVAILABLE', undefined, 'The access token cannot be checked right now; retry shortly.');
      }
    },
  };
}
