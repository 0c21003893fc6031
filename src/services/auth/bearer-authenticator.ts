import { decodeJwt } from 'jose';
import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { DB } from '../../db/schema.ts';
import { DATABASE_RETRY_AFTER_S, isDatabaseFailure } from '../../db/db-faults.ts';
import type { AccessIdentity, AccountTokenAuthenticator } from './access-identity.ts';
import type { TokenService, TokenSubject } from './token.service.ts';

const BEARER = /^Bearer +(\S+) *$/i;
/** Verified tokens remembered; past this the memory starts over (a miss only costs a verification). */
const MAX_REMEMBERED = 20_000;

/**
 * Resolves `Authorization: Bearer <jwt>`: one of our keys signed it, it has not expired on the service
 * clock, and the credential and certificate it was issued for are still active (revoking either one
 * ends its tokens at once). A database failure is not the caller's fault: 503, never a 401.
 *
 * Two things keep this cheap on every call without weakening it:
 * - a token whose signature verified once is remembered with its `nbf`/`exp`, so the same string is
 *   not verified again (ES256 plus a key lookup); its time window is still judged on every call, on
 *   the service clock, as the verifier does (a key verifies its tokens until they expire, so a later
 *   key rotation cannot end a token that verified);
 * - the still-active check is NOT remembered: it runs on every call, but concurrent calls share one
 *   query (those that arrive in the same event-loop turn), so a revocation ends tokens at once.
 */
export function createBearerAuthenticator(deps: { db: Kysely<DB>; tokens: TokenService; clock?: Clock }): AccountTokenAuthenticator {
  const remembered = new Map<string, { subject: TokenSubject; nbf: number | undefined; exp: number }>();

  async function verify(token: string): Promise<TokenSubject | undefined> {
    const clock = deps.clock;
    const known = clock ? remembered.get(token) : undefined;
    if (known && clock) {
      const now = Math.floor(clock.now().getTime() / 1000);
      if (known.exp <= now || (known.nbf !== undefined && known.nbf > now)) return deps.tokens.verify(token);
      return known.subject;
    }
    const subject = await deps.tokens.verify(token);
    if (subject && clock) {
      const claims = decodeJwt(token);
      if (typeof claims.exp === 'number') {
        if (remembered.size >= MAX_REMEMBERED) remembered.clear();
        remembered.set(token, { subject, nbf: typeof claims.nbf === 'number' ? claims.nbf : undefined, exp: claims.exp });
      }
    }
    return subject;
  }

  type Waiting = { subject: TokenSubject; resolve: (active: boolean) => void; reject: (error: unknown) => void };
  let waiting: Waiting[] = [];

  async function flush() {
    const batch = waiting;
    waiting = [];
    try {
      const rows = await deps.db
        .selectFrom('credentials')
        .innerJoin('certificates', 'certificates.account_id', 'credentials.account_id')
        .select(['credentials.client_id', 'credentials.account_id', 'certificates.fingerprint'])
        .where('credentials.revoked_at', 'is', null)
        .where('certificates.revoked_at', 'is', null)
        .where((e) =>
          e.or(
            batch.map(({ subject }) =>
              e.and([
                e('credentials.client_id', '=', subject.clientId),
                e('credentials.account_id', '=', subject.accountId),
                e('certificates.fingerprint', '=', subject.certificateFingerprint),
              ]),
            ),
          ),
        )
        .execute();
      const active = new Set(rows.map((r) => `${r.client_id}\u0000${r.account_id}\u0000${r.fingerprint}`));
      for (const w of batch) w.resolve(active.has(`${w.subject.clientId}\u0000${w.subject.accountId}\u0000${w.subject.certificateFingerprint}`));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }

  function isActive(subject: TokenSubject): Promise<boolean> {
    return new Promise((resolve, reject) => {
      waiting.push({ subject, resolve, reject });
      if (waiting.length === 1) setImmediate(flush);
    });
  }

  return {
    async authenticate(header): Promise<AccessIdentity | undefined> {
      const match = header ? BEARER.exec(header) : null;
      if (!match) return undefined;
      try {
        const subject = await verify(match[1]!);
        if (!subject) return undefined;
        if (!(await isActive(subject))) return undefined;
        return { accountId: subject.accountId, clientId: subject.clientId, scopes: subject.scopes };
      } catch (error) {
        // Only the database failing to answer is "cannot check now" (503, logged by the error
        // handler as such); anything else is a bug of ours and must surface as a logged 500.
        if (!isDatabaseFailure(error)) throw error;
        const unavailable = new DomainError('SERVICE_UNAVAILABLE', { retryAfterSeconds: DATABASE_RETRY_AFTER_S }, 'The access token cannot be checked right now; retry shortly.');
        throw Object.assign(unavailable, { cause: error });
      }
    },
  };
}
