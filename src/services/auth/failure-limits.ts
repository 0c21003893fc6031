import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { Clock } from '../../domain/clock.ts';
import { isUuidV4 } from '../../domain/ids.ts';
import type { DB } from '../../db/schema.ts';
import { prepared } from '../../db/prepared.ts';
import { fn } from '../../db/function-sources.ts';
import { createCheckSlots, type FailureTimes } from './check-slots.ts';

/** Every failure limit counts the failures of the last 15 minutes, sliding (decisions 7). */
export const FAILURE_WINDOW_SECONDS = 15 * 60;

export interface FailureRule {
  /** Failed checks allowed in any 15 minutes; at the limit, the key's attempts answer 429 unchecked. */
  limit: number;
}
/** Wrong secrets per client, on both token routes together, made with that account's own certificates. */
export const CLIENT_FAILURES: FailureRule = { limit: 10 };
/** Wrong secrets per certificate for a credential that is not its account's (or no credential at all). */
export const CERTIFICATE_FAILURES: FailureRule = { limit: 10 };
/** Failures per address on the token routes: several clients may share one address. */
export const ADDRESS_FAILURES: FailureRule = { limit: 30 };
/** Wrong admin tokens per address (there is one admin token: the address is the only key). */
export const ADMIN_ADDRESS_FAILURES: FailureRule = { limit: 10 };
/** Wrong portal passwords per e-mail at an address. */
export const SIGN_IN_FAILURES: FailureRule = { limit: 10 };
/** Failed portal sign-ins per address, whatever the e-mail (decisions 6: password spraying; issue 30). */
export const SIGN_IN_ADDRESS_FAILURES: FailureRule = { limit: 10 };

/** A counter: its name in `auth_failures` and its limit. */
export interface FailureKey {
  key: string;
  limit: number;
}

/**
 * Which keys judge an attempt and which count its failure. `deciding` keys refuse the attempt (429,
 * unchecked) when over their limit, bound the checks running at once, and admit its failure only
 * while under the limit; `alsoCounting` keys only count it.
 */
export interface FailurePlan {
  deciding: FailureKey[];
  alsoCounting: FailureKey[];
}

export type Judgement = { outcome: 'right' } | { outcome: 'wrong' } | { outcome: 'refused'; retryAfterSeconds: number };

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

const isLoopback = (ip: string) => ipaddr.isValid(ip) && ipaddr.process(ip).range() === 'loopback';
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
const key = (name: string, rule: FailureRule): FailureKey => ({ key: name, limit: rule.limit });

/**
 * Which clock a key's times come from, as the first part of its name: `api` keys (token routes,
 * admin guard) run on the service clock, `portal` keys on real time.
 */
export type FailureFamily = 'api' | 'portal';

/** The counters, by what they count. */
export const failureKeys = {
  /** A client id as written when it is a UUID (only a UUID can name a credential), else by its digest. */
  client: (clientId: string) => key(`api:client:${isUuidV4(clientId) ? clientId.toLowerCase() : `sha256:${digest(clientId)}`}`, CLIENT_FAILURES),
  certificate: (fingerprint: string) => key(`api:certificate:${fingerprint}`, CERTIFICATE_FAILURES),
  tokenAddress: (ip: string) => key(`api:token-address:${addressKey(ip)}`, ADDRESS_FAILURES),
  adminAddress: (ip: string) => key(`api:admin-address:${addressKey(ip)}`, ADMIN_ADDRESS_FAILURES),
  /** An e-mail is personal data: the counter holds a digest of it with the address. */
  signIn: (email: string, ip: string) => key(`portal:sign-in:${digest(`${email}\n${addressKey(ip)}`)}`, SIGN_IN_FAILURES),
  /** Every failed sign-in from an address, whichever e-mail it named. */
  signInAddress: (ip: string) => key(`portal:sign-in-address:${addressKey(ip)}`, SIGN_IN_ADDRESS_FAILURES),
};

/**
 * A key's failure times (epoch ms, oldest first; null when it has none), as an expression to fold
 * into the statement a look-up already runs: a right secret then costs no statement of its own.
 */
export function failureTimesOf(k: FailureKey): RawBuilder<number[] | null> {
  return sql<number[] | null>`(SELECT to_jsonb(ARRAY(SELECT (extract(epoch FROM t) * 1000)::bigint FROM unnest(failed_at) AS t ORDER BY t)) FROM auth_failures WHERE key = ${k.key})`;
}

/** Seconds until a key holds fewer than `limit` failures in the window; undefined when it already does. */
export function retryAfterSeconds(times: FailureTimes, limit: number, now: number): number | undefined {
  const windowMs = FAILURE_WINDOW_SECONDS * 1000;
  const recent = times.filter((t) => t > now - windowMs);
  if (recent.length < limit) return undefined;
  // The key drops under its limit when its limit-th newest failure leaves the window.
  const leaves = recent[recent.length - limit]! + windowMs;
  return Math.max(1, Math.ceil((leaves - now) / 1000));
}

/**
 * Failure limits on secrets (decisions 7; issue 20). Only a failed check counts, in the database
 * (`auth_failures`, migration 960), so every instance on one PostgreSQL shares the budget:
 *  - an attempt is refused (429, its secret not checked) only when a key that judges it is over its
 *    limit; which keys judge it is the caller's plan (the client's own key for a right certificate,
 *    the admin address, the portal e-mail at its address...);
 *  - checks run at once are bounded per key (`check-slots.ts`), and `record_auth_failure` admits a
 *    failure only while the key is under its limit, so a burst of wrong secrets gets at most the
 *    limit checked and answered 401, the rest 429 (and a 429 is not counted again);
 *  - a right secret writes nothing: the read of its keys rides in its look-up statement.
 * `loopbackAdminUnlimited` (sandbox): a loopback caller's admin attempts are checked, never limited.
 */
export function createFailureLimits(deps: { db: Kysely<DB>; clock: Clock; family: FailureFamily; loopbackAdminUnlimited?: boolean; maxWaitMs?: number }) {
  const now = () => deps.clock.now().getTime();
  const slots = createCheckSlots({ now, windowMs: FAILURE_WINDOW_SECONDS * 1000, maxWaitMs: deps.maxWaitMs ?? 5_000 });

  /** The failure times of keys, in a statement of their own (when no look-up runs anyway). */
  async function read(keys: readonly FailureKey[]): Promise<Map<string, FailureTimes>> {
    if (keys.length === 0) return new Map();
    const rows = await sql<{ key: string; times: number[] }>`
      ${prepared('auth_failures_read')}SELECT key, to_jsonb(ARRAY(SELECT (extract(epoch FROM t) * 1000)::bigint FROM unnest(failed_at) AS t ORDER BY t)) AS times
        FROM auth_failures WHERE key = ANY (${keys.map((k) => k.key)}::text[])`.execute(deps.db);
    return new Map(rows.rows.map((r) => [r.key, r.times.map(Number)]));
  }

  /** Records a failed check on every key of the plan, admitted only while each deciding key is under its limit. */
  async function record(plan: FailurePlan): Promise<{ admitted: boolean; times: Map<string, FailureTimes> }> {
    const keys = distinct(plan);
    const rows = await sql<{ o_admitted: boolean; o_key: string; o_failures: number[] }>`
      ${prepared('record_auth_failure')}SELECT o_admitted, o_key, o_failures FROM ${fn('record_auth_failure')}(
        ${keys.map((k) => k.key)}::text[], ${keys.map((k) => k.limit)}::int[], ${keys.map((k) => k.deciding)}::boolean[],
        ${new Date(now())}::timestamptz, ${FAILURE_WINDOW_SECONDS}::int, ${deps.family}::text)`.execute(deps.db);
    return {
      admitted: rows.rows[0]?.o_admitted ?? false,
      times: new Map(rows.rows.map((r) => [r.o_key, r.o_failures.map(Number)])),
    };
  }

  function refusal(plan: FailurePlan, times: Map<string, FailureTimes>): Judgement {
    const at = now();
    const waits = plan.deciding.map((k) => retryAfterSeconds(times.get(k.key) ?? [], k.limit, at)).filter((s) => s !== undefined);
    // A deciding key was found at its limit, so one of them has a time; 1 s covers a clock that moved since.
    return { outcome: 'refused', retryAfterSeconds: waits.length > 0 ? Math.max(...waits) : 1 };
  }

  /**
   * Judges one attempt: refused unchecked when a deciding key is over its limit, else `check` runs
   * (within the key's check slots) and a wrong answer is recorded. `seen` holds the failure times
   * the attempt's look-up read (`failureTimesOf`); without it they are read here.
   */
  async function judge(plan: FailurePlan, check: () => Promise<boolean> | boolean, seen?: Map<string, FailureTimes | null>): Promise<Judgement> {
    if (plan.deciding.length === 0 && plan.alsoCounting.length === 0) return { outcome: (await check()) ? 'right' : 'wrong' };
    const known = seen ? new Map([...seen].map(([k, v]) => [k, v ?? []] as const)) : await read(plan.deciding);
    const slot = await slots.enter(plan.deciding, known);
    if (slot.refused) return refusal(plan, slot.times);
    let learned: Map<string, FailureTimes> | undefined;
    try {
      if (await check()) return { outcome: 'right' };
      const recorded = await record(plan);
      learned = recorded.times;
      return recorded.admitted ? { outcome: 'wrong' } : refusal(plan, recorded.times);
    } finally {
      slot.release(learned);
    }
  }

  return {
    judge,
    /** A client-credentials attempt whose certificate belongs to the credential's own account. */
    ownCertificateAttempt: (caller: { clientId: string; address: string }): FailurePlan => ({
      deciding: [failureKeys.client(caller.clientId)],
      alsoCounting: [failureKeys.tokenAddress(caller.address)],
    }),
    /** A client-credentials attempt whose certificate belongs to another account, or to no credential's. */
    foreignCertificateAttempt: (caller: { fingerprint: string; address: string }): FailurePlan => ({
      deciding: [failureKeys.certificate(caller.fingerprint), failureKeys.tokenAddress(caller.address)],
      alsoCounting: [],
    }),
    /** An admin-token attempt: judged by its address (a sandbox's loopback caller by nothing). */
    adminAttempt: (caller: { address: string }): FailurePlan =>
      deps.loopbackAdminUnlimited && isLoopback(caller.address)
        ? { deciding: [], alsoCounting: [] }
        : { deciding: [failureKeys.adminAddress(caller.address)], alsoCounting: [] },
    /**
     * A portal sign-in: judged by the e-mail at its address and by the address (10 failures there,
     * over any e-mails, refuse it before its password is hashed); the same e-mail elsewhere is not.
     */
    signInAttempt: (caller: { email: string; address: string }): FailurePlan => ({
      deciding: [failureKeys.signIn(caller.email, caller.address), failureKeys.signInAddress(caller.address)],
      alsoCounting: [],
    }),
    /** Keys with checks running or waiting on this instance (tests: none is left behind). */
    checksInFlight: () => slots.size(),
  };
}

export type FailureLimits = ReturnType<typeof createFailureLimits>;

/** Each key once; a key that decides anywhere in the plan decides. */
function distinct(plan: FailurePlan): Array<FailureKey & { deciding: boolean }> {
  const byKey = new Map<string, FailureKey & { deciding: boolean }>();
  for (const k of plan.alsoCounting) byKey.set(k.key, { ...k, deciding: false });
  for (const k of plan.deciding) byKey.set(k.key, { ...k, deciding: true });
  return [...byKey.values()];
}

/** The 429 of a key over its limit, with its Retry-After. */
export function tooManyFailures(retryAfterSeconds: number): DomainError {
  return new DomainError(
    'RATE_LIMITED',
    { retryAfterSeconds, hint: `Too many failed attempts; retry after ${retryAfterSeconds} s.` },
    `Too many failed authentication attempts for this client, certificate or address; retry after ${retryAfterSeconds} seconds.`,
  );
}
