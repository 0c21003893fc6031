import { decodeJwt } from 'jose';
import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { DB } from '../../db/schema.ts';
import { DATABASE_RETRY_AFTER_S, isDatabaseFailure } from '../../db/db-faults.ts';
import type { AccessIdentity, AccountTokenAuthenticator } from './access-identity.ts';
import type { AccessTrust } from './access-lease.ts';
import type { TokenService, TokenSubject } from './token.service.ts';

const BEARER = /^Bearer +(\S+) *$/i;
/** Verified tokens remembered; past this the memory starts over (a miss only costs a verification). */
const MAX_REMEMBERED = 20_000;
/**
 * A remembered "still active" is asked again after this long anyway (belt and braces: exactness
 * comes from the access lease, see access-lease.ts).
 */
const REMEMBER_ACTIVE_MS = 60_000;

/** How the still-active check was answered (tests, metrics). */
export interface StillActiveStats {
  /** From memory (no query). */
  remembered: number;
  /** Calls that waited on a database answer (several share one query). */
  asked: number;
}

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
 * - the still-active check (credential and certificate not revoked) is remembered only while `trust`
 *   (the access lease) says the memory may be used, and only under the epoch it gives: every change
 *   notification, lost listener or lapsed lease starts a new epoch, which voids everything
 *   remembered before, and an answer asked under an older epoch is not remembered. A revocation
 *   answers only once every instance with a lease forgot (access-lease.ts), so the revoked
 *   credential fails on its very next request, whichever instance it reaches. Without trust, every
 *   call asks the database (concurrent calls share one query, those of one event-loop turn).
 */
export function createBearerAuthenticator(deps: { db: Kysely<DB>; tokens: TokenService; clock?: Clock; trust?: AccessTrust }): AccountTokenAuthenticator & {
  stillActiveStats(): StillActiveStats;
} {
  /** Still-active answers remembered under `memoryEpoch`: key -> when to ask again anyway (real-time ms). */
  const activeUntil = new Map<string, number>();
  let memoryEpoch: number | undefined;
  const stats: StillActiveStats = { remembered: 0, asked: 0 };
  const keyOf = (s: TokenSubject) => `${s.clientId}\u0000${s.accountId}\u0000${s.certificateFingerprint}`;

  /** The epoch the memory may be used under now (forgetting what an older one remembered), or undefined. */
  function currentEpoch(): number | undefined {
    const epoch = deps.trust?.epoch();
    if (epoch !== memoryEpoch) {
      activeUntil.clear();
      memoryEpoch = epoch;
    }
    return epoch;
  }

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

  function askDatabase(subject: TokenSubject): Promise<boolean> {
    return new Promise((resolve, reject) => {
      waiting.push({ subject, resolve, reject });
      if (waiting.length === 1) setImmediate(flush);
    });
  }

  async function isActive(subject: TokenSubject): Promise<boolean> {
    const key = keyOf(subject);
    const asked = currentEpoch();
    if (asked !== undefined && (activeUntil.get(key) ?? 0) > Date.now()) {
      stats.remembered += 1;
      return true;
    }
    stats.asked += 1;
    const active = await askDatabase(subject);
    // Remember only an answer asked and received under the same epoch (no change notification,
    // lost listener or lapsed lease in between), and only "active": refusals are rare and must
    // stay right whatever happens to the rows.
    if (active && asked !== undefined && currentEpoch() === asked) {
      if (activeUntil.size >= MAX_REMEMBERED) activeUntil.clear();
      activeUntil.set(key, Date.now() + REMEMBER_ACTIVE_MS);
    }
    return active;
  }

  return {
    stillActiveStats: () => ({ ...stats }),
    async authenticate(header): Promise<AccessIdentity | undefined> {
      const match = header ? BEARER.exec(header) : null;
      if (!match) return undefined;
      try {
        const subject = await verify(match[1]!);
        if (!subject) return undefined;
        if (!(await isActive(subject))) return undefined;
        return { accountId: subject.accountId, clientId: subject.clientId, scopes: subject.scopes, certificateFingerprint: subject.certificateFingerprint };
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
