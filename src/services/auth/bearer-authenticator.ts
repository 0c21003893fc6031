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
 * How long a remembered "still active" may be served. 0: OFF. With two instances on one PostgreSQL,
 * a request reaching the other instance right after a revocation answered could still be served from
 * its memory before its listener read the notification (seen in test/postgres/access-memory.test.ts
 * about 1 run in 3 with 60 s here). Until the revocation waits for every instance, the check stays a
 * (shared) query per call: revocation exactness comes before speed.
 */
const REMEMBER_ACTIVE_MS = 0;

/** What the change notifications of credentials and certificates feed (see `dueWakeups`' sibling in the container). */
export interface AccessWatch {
  /** A credential or certificate changed somewhere: forget every remembered answer. */
  accessChanged(): void;
  /** Whether change notifications are being received; while not, nothing is remembered. */
  listening(on: boolean): void;
  /** Resolves at the next change notification received, or after `withinMs`. */
  nextChange(withinMs: number): Promise<void>;
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
 * - the still-active check (credential and certificate not revoked) is remembered while the database's
 *   change notifications are being received (`watchAccess`): any update or deletion of a credential
 *   or certificate, by any instance, notifies at its commit (migration 690) and everything
 *   remembered is forgotten. While notifications are not being received, nothing is remembered and
 *   every call asks the database (concurrent calls share one query, those of one event-loop turn).
 */
export function createBearerAuthenticator(deps: { db: Kysely<DB>; tokens: TokenService; clock?: Clock }): AccountTokenAuthenticator & AccessWatch {
  /** Still-active answers remembered: key -> when to ask again anyway (real-time ms). */
  const activeUntil = new Map<string, number>();
  /** Only while change notifications are received can a remembered answer be trusted. */
  let trusted = false;
  /** Bumped on every change notification: an answer read before it is not remembered. */
  let generation = 0;
  let changeWaiters: Array<() => void> = [];
  const keyOf = (s: TokenSubject) => `${s.clientId}\u0000${s.accountId}\u0000${s.certificateFingerprint}`;

  function forgetAll() {
    generation += 1;
    activeUntil.clear();
  }

  const watch: AccessWatch = {
    accessChanged() {
      forgetAll();
      const waiting = changeWaiters;
      changeWaiters = [];
      // After the I/O callbacks already due (other listening connections' reads in this process,
      // e.g. another instance in a test): their forgetting runs before the revoker answers.
      setImmediate(() => {
        for (const resolve of waiting) resolve();
      });
    },
    listening(on) {
      forgetAll();
      trusted = on;
    },
    nextChange(withinMs) {
      // Nothing is remembered while notifications are not received: nothing to wait for.
      if (!trusted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, withinMs);
        changeWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
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
    if (trusted && (activeUntil.get(key) ?? 0) > Date.now()) return true;
    const asked = generation;
    const active = await askDatabase(subject);
    // Remember only an answer no change notification has overtaken (and only "active": refusals
    // are rare and must stay right whatever happens to the rows).
    if (active && trusted && asked === generation) {
      if (activeUntil.size >= MAX_REMEMBERED) activeUntil.clear();
      activeUntil.set(key, Date.now() + REMEMBER_ACTIVE_MS);
    }
    return active;
  }

  return {
    ...watch,
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
