import { createHash, randomBytes } from 'node:crypto';
import type { PortalRole } from '../../domain/closed-lists.ts';
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { DB } from '../../db/schema.ts';
import type { Actor, AuditLog } from '../audit/audit-log.ts';
import { FAILURE_WINDOW_SECONDS, type FailureLimits, type FailurePlan } from '../auth/failure-limits.ts';
import type { PortalUser } from './portal-people.service.ts';
import type { SecretSealer } from './secret-sealer.ts';
import { matchingStep, newRecoveryCode, newTotpSecret, normaliseRecoveryCode, otpauthUri, RECOVERY_CODE_COUNT } from './totp.ts';

/** How long a right password waits for its second step. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Wrong second steps per person in any 15 minutes (as wrong passwords per e-mail at an address). */
export const SECOND_STEP_FAILURES = { limit: 10 };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const actorOf = (user: PortalUser, address: string | null): Actor => ({
  actor: `${user.role === 'OPERATOR' ? 'operator' : 'member'}:${user.id}`,
  email: user.email,
  address,
});

/**
 * Two-factor sign-in to the portal (issue 30 item 2): TOTP (RFC 6238) turned on by the person, with
 * ten recovery codes shown once and kept hashed. The second step is failure-limited like the
 * password (failure-limits.ts, in the database, per person: a stolen password does not buy endless
 * code guesses from many addresses) and every answer to it is in the audit log. Runs on real time
 * (the container's system clock): the authenticator app does.
 */
export function createTwoFactorService(deps: { db: Kysely<DB>; clock: Clock; audit: AuditLog; failures: FailureLimits; sealer: SecretSealer; issuer: string }) {
  const { db, clock } = deps;

  const secondStepPlan = (userId: number): FailurePlan => ({ deciding: [{ key: `portal:second-step:${userId}`, limit: SECOND_STEP_FAILURES.limit }], alsoCounting: [] });

  async function row(userId: number) {
    return db.selectFrom('portal_two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  function secretOf(sealed: string): string {
    const secret = deps.sealer.open(sealed);
    // A key that was removed from the configuration: nobody can prove this factor any more.
    if (secret === undefined) throw new Error('a TOTP secret cannot be opened: was CLIENT_SECRET_HASH_KEY changed without keeping the old key?');
    return secret;
  }

  /** True when the person signs in with a second step. */
  async function enabled(userId: number): Promise<boolean> {
    return Boolean((await row(userId))?.enabled_at);
  }

  /**
   * Starts (or restarts) enrolment: a new secret, shown to the person now (QR code and text) and
   * never again once a code has proved it. Turning it on again while on is a conflict.
   */
  async function begin(user: PortalUser): Promise<{ secret: string; uri: string }> {
    const secret = newTotpSecret();
    const sealed = deps.sealer.seal(secret);
    const saved = await db
      .insertInto('portal_two_factor')
      .values({ user_id: user.id, secret_sealed: sealed, enabled_at: null, last_step: null, created_at: clock.now() })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret_sealed: sealed, created_at: clock.now() }).where('portal_two_factor.enabled_at', 'is', null))
      .returning('user_id')
      .executeTakeFirst();
    if (!saved) throw new DomainError('CONFLICT', undefined, 'Two-factor sign-in is already on');
    return { secret, uri: otpauthUri(secret, deps.issuer, user.email) };
  }

  /** The secret being enrolled (shown again until a code proves it), or undefined. */
  async function pending(user: PortalUser): Promise<{ secret: string; uri: string } | undefined> {
    const found = await row(user.id);
    if (!found || found.enabled_at) return undefined;
    const secret = secretOf(found.secret_sealed);
    return { secret, uri: otpauthUri(secret, deps.issuer, user.email) };
  }

  /**
   * A code from the app proves the secret: two-factor sign-in is on, and the recovery codes are
   * answered (once: only their hashes are kept). Wrong codes count like the second step's.
   */
  async function confirm(user: PortalUser, code: string, address: string | null): Promise<string[]> {
    const found = await row(user.id);
    if (!found || found.enabled_at) throw new DomainError('CONFLICT', undefined, 'Start turning two-factor sign-in on first');
    const secret = secretOf(found.secret_sealed);
    let step: number | undefined;
    const judged = await deps.failures.judge(secondStepPlan(user.id), () => (step = matchingStep(secret, code.replace(/\s/g, ''), clock.now())) !== undefined);
    if (judged.outcome === 'refused') throw new DomainError('RATE_LIMITED', { retryAfterSeconds: judged.retryAfterSeconds }, 'Too many wrong codes: try again later');
    if (judged.outcome === 'wrong') throw new DomainError('UNAUTHORIZED', { reason: 'invalid-code' }, 'The code is not right');
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await db.transaction().execute(async (trx) => {
      const on = await trx
        .updateTable('portal_two_factor')
        .set({ enabled_at: clock.now(), last_step: step! })
        .where('user_id', '=', user.id)
        .where('enabled_at', 'is', null)
        .where('secret_sealed', '=', found.secret_sealed)
        .returning('user_id')
        .executeTakeFirst();
      if (!on) throw new DomainError('CONFLICT', undefined, 'Two-factor sign-in changed meanwhile: start again');
      await trx.deleteFrom('portal_recovery_codes').where('user_id', '=', user.id).execute();
      await trx
        .insertInto('portal_recovery_codes')
        .values(codes.map((c) => ({ user_id: user.id, code_hash: sha256(normaliseRecoveryCode(c)!), used_at: null })))
        .execute();
      await deps.audit.record(trx, actorOf(user, address), { action: 'two-factor.enable', accountId: user.accountId, target: `${user.role === 'OPERATOR' ? 'operator' : 'member'}:${user.id}` });
    });
    return codes;
  }

  /**
   * Checks a second step: a TOTP code of the person's app (each step's code once) or one of their
   * recovery codes (each once). Throttled per person; every answer is audited.
   */
  async function verify(user: PortalUser, typed: string, address: string | null): Promise<'totp' | 'recovery'> {
    const found = await row(user.id);
    if (!found?.enabled_at) throw new DomainError('UNAUTHORIZED', { reason: 'no-second-factor' }, 'Two-factor sign-in is not on');
    const secret = secretOf(found.secret_sealed);
    const code = typed.replace(/\s/g, '');
    let method: 'totp' | 'recovery' = 'totp';
    const judged = await deps.failures.judge(secondStepPlan(user.id), async () => {
      const step = matchingStep(secret, code, clock.now());
      if (step !== undefined) {
        // The step moves forward only: a code already used (or an older one) does not open twice.
        const used = await db
          .updateTable('portal_two_factor')
          .set({ last_step: step })
          .where('user_id', '=', user.id)
          .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
          .returning('user_id')
          .executeTakeFirst();
        return Boolean(used);
      }
      const recovery = normaliseRecoveryCode(code);
      if (!recovery) return false;
      method = 'recovery';
      const spent = await db
        .updateTable('portal_recovery_codes')
        .set({ used_at: clock.now() })
        .where('user_id', '=', user.id)
        .where('code_hash', '=', sha256(recovery))
        .where('used_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      return Boolean(spent);
    });
    const target = `${user.role === 'OPERATOR' ? 'operator' : 'member'}:${user.id}`;
    if (judged.outcome === 'refused') {
      await deps.audit.recordNow(actorOf(user, address), { action: 'sign-in.second-step', accountId: user.accountId, target, after: { outcome: 'refused', retryAfterSeconds: judged.retryAfterSeconds } });
      throw new DomainError('RATE_LIMITED', { retryAfterSeconds: judged.retryAfterSeconds }, 'Too many wrong codes: try again later');
    }
    await deps.audit.recordNow(actorOf(user, address), { action: 'sign-in.second-step', accountId: user.accountId, target, after: { outcome: judged.outcome, method } });
    if (judged.outcome === 'wrong') throw new DomainError('UNAUTHORIZED', { reason: 'invalid-code' }, 'The code is not right');
    return method;
  }

  /** Turns two-factor sign-in off, proved by a current code or a recovery code. */
  async function disable(user: PortalUser, code: string, address: string | null) {
    await verify(user, code, address);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('portal_recovery_codes').where('user_id', '=', user.id).execute();
      await trx.deleteFrom('portal_two_factor').where('user_id', '=', user.id).execute();
      await deps.audit.record(trx, actorOf(user, address), { action: 'two-factor.disable', accountId: user.accountId, target: `${user.role === 'OPERATOR' ? 'operator' : 'member'}:${user.id}` });
    });
  }

  /** Recovery codes not used yet. */
  async function recoveryCodesLeft(userId: number): Promise<number> {
    const { n } = await db.selectFrom('portal_recovery_codes').select(sql<string>`count(*)`.as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow();
    return Number(n);
  }

  /** A right password waiting for its second step: the id for the browser (its hash is kept). */
  async function openChallenge(user: PortalUser, next: string | null, address: string | null): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = clock.now();
    // Challenges older than the failure window are of no use to anyone: swept as new ones come.
    await db.deleteFrom('portal_sign_in_challenges').where('expires_at', '<', new Date(now.getTime() - FAILURE_WINDOW_SECONDS * 1000)).execute();
    await db
      .insertInto('portal_sign_in_challenges')
      .values({ id_hash: sha256(id), user_id: user.id, next, created_at: now, expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS), used_at: null, address })
      .execute();
    return id;
  }

  /** The person a live challenge belongs to, and where they were going. */
  async function findChallenge(id: string): Promise<{ user: PortalUser; next: string | null } | undefined> {
    const found = await db
      .selectFrom('portal_sign_in_challenges as c')
      .innerJoin('portal_users as u', 'u.id', 'c.user_id')
      .select(['u.id', 'u.email', 'u.role', 'u.account_id', 'u.removed_at', 'c.next', 'c.expires_at', 'c.used_at'])
      .where('c.id_hash', '=', sha256(id))
      .executeTakeFirst();
    if (!found || found.used_at || found.removed_at || found.expires_at <= clock.now()) return undefined;
    return { user: { id: Number(found.id), email: found.email, role: found.role, accountId: found.account_id }, next: found.next };
  }

  /** Ends a challenge (its second step succeeded); false when it was already used. */
  async function closeChallenge(id: string): Promise<boolean> {
    const closed = await db.updateTable('portal_sign_in_challenges').set({ used_at: clock.now() }).where('id_hash', '=', sha256(id)).where('used_at', 'is', null).returning('user_id').executeTakeFirst();
    return Boolean(closed);
  }

  return { enabled, begin, pending, confirm, verify, disable, recoveryCodesLeft, openChallenge, findChallenge, closeChallenge };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

/** PORTAL_REQUIRE_2FA: whether a person of this role must have two-factor sign-in. */
export const twoFactorRequired = (policy: 'off' | 'operators' | 'all', role: PortalRole): boolean => policy === 'all' || (policy === 'operators' && role === 'OPERATOR');
