import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { isUuidV4 } from '../../domain/ids.ts';
import type { RateLimiter, RateLimitRule } from '../rate-limit/fixed-window.ts';

const FIFTEEN_MINUTES = 15 * 60;
/** Wrong secrets allowed per client id, on both token routes together, per 15-minute window. */
export const CLIENT_FAILURES: RateLimitRule = { limit: 10, windowSeconds: FIFTEEN_MINUTES };
/** Wrong secrets allowed per address on the token routes: several clients may share one address. */
export const ADDRESS_FAILURES: RateLimitRule = { limit: 30, windowSeconds: FIFTEEN_MINUTES };
/** Wrong admin tokens allowed per address. */
export const ADMIN_ADDRESS_FAILURES: RateLimitRule = { limit: 10, windowSeconds: FIFTEEN_MINUTES };

/** An attempt already counted as a failure; `uncount` takes it back once it proved not to be one (a right secret). */
export interface CountedAttempt {
  /** Set when a counter was already spent: the attempt must be refused (429) without checking the secret. */
  retryAfterSeconds: number | undefined;
  uncount(): Promise<void>;
}

/**
 * The address a counter is kept for: IPv4 as is, IPv6 by its /64 (one host commonly holds a whole
 * /64, so counting single IPv6 addresses would not slow anybody down). IPv4-mapped IPv6 is IPv4.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
}

/** A client id as a bucket name: a UUID as written, anything else (any length) by its digest. */
const clientKey = (clientId: string) =>
  isUuidV4(clientId) ? clientId.toLowerCase() : `sha256:${createHash('sha256').update(clientId).digest('hex').slice(0, 32)}`;

/**
 * Brute-force limits on secrets (issue 10 item 6). Every attempt is counted BEFORE its secret is
 * checked, atomically in the shared database table (so N instances share one budget, and a burst of
 * concurrent guesses cannot all slip past a read-then-write check); a right secret gives its count
 * back. So the counters hold failures, and once one is spent every further attempt, right or wrong,
 * answers 429 until its window ends: a guesser learns nothing from the answers.
 */
export function createFailureLimits(deps: { rateLimiter: RateLimiter }) {
  async function count(buckets: Array<{ bucket: string; rule: RateLimitRule }>): Promise<CountedAttempt> {
    // Every bucket counted by one statement; taken back by one.
    const decisions = await deps.rateLimiter.hitMany(buckets);
    const refused = decisions.filter((d) => !d.allowed);
    return {
      retryAfterSeconds: refused.length > 0 ? Math.max(...refused.map((d) => d.resetSeconds)) : undefined,
      uncount: () => deps.rateLimiter.giveBack(buckets.map((b, i) => ({ bucket: b.bucket, windowStart: decisions[i]!.windowStart }))),
    };
  }

  return {
    /** A client-credentials attempt on either token route: counted per client id and per address. */
    tokenAttempt: (caller: { clientId: string; address: string }) =>
      count([
        { bucket: `auth-fail:client:${clientKey(caller.clientId)}`, rule: CLIENT_FAILURES },
        { bucket: `auth-fail:address:${addressKey(caller.address)}`, rule: ADDRESS_FAILURES },
      ]),
    /** An admin-token attempt: counted per address (there is one admin token, not one per client). */
    adminAttempt: (caller: { address: string }) =>
      count([{ bucket: `admin-fail:address:${addressKey(caller.address)}`, rule: ADMIN_ADDRESS_FAILURES }]),
  };
}

export type FailureLimits = ReturnType<typeof createFailureLimits>;

/** The 429 of a spent counter, with its Retry-After. */
export function tooManyFailures(retryAfterSeconds: number): DomainError {
  return new DomainError(
    'RATE_LIMITED',
    { retryAfterSeconds, hint: `Too many failed attempts; retry after ${retryAfterSeconds} s.` },
    `Too many failed authentication attempts for this client or from this address; retry after ${retryAfterSeconds} seconds.`,
  );
}
