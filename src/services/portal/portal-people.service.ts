import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { paginate } from '../../db/paginate.ts';
import type { DB } from '../../db/schema.ts';
import type { PortalRole } from '../../db/schema/portal.ts';
import type { AccountService } from '../accounts/account.service.ts';
import type { Actor, AuditLog } from '../audit/audit-log.ts';
import { DUMMY_HASH_PROMISE, hashSecret, verifySecret } from '../auth/secret-hash.ts';
import { failureTimesOf, type FailureKey, type FailureLimits } from '../auth/failure-limits.ts';

export const MIN_PASSWORD_LENGTH = 12;
// scrypt cost grows with the input; nobody needs more than this.
export const MAX_PASSWORD_LENGTH = 256;
const INVITATION_TTL_MS = 72 * 3600_000;

export interface PortalUser {
  id: number;
  email: string;
  role: PortalRole;
  accountId: number | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  // Deliberately loose (RFC 5322 is not worth matching): one @, something on both sides, a dot after.
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ValidationError(['email must be an email address']);
  return email;
}

function checkPassword(password: string) {
  if (password.length < MIN_PASSWORD_LENGTH) throw new ValidationError([`password must have at least ${MIN_PASSWORD_LENGTH} characters`]);
  if (password.length > MAX_PASSWORD_LENGTH) throw new ValidationError([`password must have at most ${MAX_PASSWORD_LENGTH} characters`]);
}

const userOf = (row: { id: number; email: string; role: PortalRole; account_id: number | null }): PortalUser => ({
  id: Number(row.id),
  email: row.email,
  role: row.role,
  accountId: row.account_id,
});

/**
 * The people of the portal: operators (every account) and members (one account), invitations and
 * sign-in. Portal timing (invitations, throttling windows) runs on `clock`, which the container sets
 * to real time: advancing the sandbox clock must not expire a person's invitation.
 */
export function createPortalPeopleService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  accounts: AccountService;
  audit: AuditLog;
  failures: FailureLimits;
  /** `http(s)://host[:port]` written into invitation links. */
  publicBaseUrl: string;
}) {
  const { db, clock } = deps;

  async function insertUser(trx: Kysely<DB>, email: string, role: PortalRole, accountId: number | null, passwordHash: string | null) {
    const row = await trx
      .insertInto('portal_users')
      .values({ email, role, account_id: accountId, password_hash: passwordHash, created_at: clock.now() })
      .onConflict((oc) => oc.column('email').where('removed_at', 'is', null).doNothing())
      .returning(['id', 'email', 'role', 'account_id'])
      .executeTakeFirst();
    if (!row) throw new DomainError('CONFLICT', undefined, `A portal user with email ${email} already exists`);
    return userOf(row);
  }

  async function createOperator(actor: Actor, input: { email: string; password: string }): Promise<PortalUser> {
    const email = normalizeEmail(input.email);
    checkPassword(input.password);
    const hash = await hashSecret(input.password);
    return db.transaction().execute(async (trx) => {
      const user = await insertUser(trx, email, 'OPERATOR', null, hash);
      await deps.audit.record(trx, actor, { action: 'operator.create', target: `operator:${user.id}`, after: { email } });
      return user;
    });
  }

  /** Creates the member and a one-time invitation link valid for 72 hours. */
  async function inviteMember(actor: Actor, accountId: number, rawEmail: string) {
    await deps.accounts.get(accountId);
    const email = normalizeEmail(rawEmail);
    const token = randomBytes(32).toString('base64url');
    const user = await db.transaction().execute(async (trx) => {
      const created = await insertUser(trx, email, 'MEMBER', accountId, null);
      await trx
        .insertInto('portal_invitations')
        .values({ token_hash: sha256(token), user_id: created.id, expires_at: new Date(clock.now().getTime() + INVITATION_TTL_MS), used_at: null })
        .execute();
      await deps.audit.record(trx, actor, { action: 'member.invite', accountId, target: `member:${created.id}`, after: { email } });
      return created;
    });
    return { id: user.id, email: user.email, invitationUrl: `${deps.publicBaseUrl}/portal/invitations/${token}` };
  }

  /** The invitation behind a token, when it can still be used. */
  async function openInvitation(token: string) {
    const row = await db
      .selectFrom('portal_invitations as i')
      .innerJoin('portal_users as u', 'u.id', 'i.user_id')
      .select(['u.id', 'u.email', 'u.role', 'u.account_id', 'i.expires_at', 'i.used_at', 'u.removed_at'])
      .where('i.token_hash', '=', sha256(token))
      .executeTakeFirst();
    if (!row || row.used_at || row.removed_at || row.expires_at <= clock.now()) return undefined;
    return userOf(row);
  }

  /** Sets the invited member's password; the link works once. */
  async function acceptInvitation(token: string, password: string, address: string | null): Promise<PortalUser> {
    checkPassword(password);
    const hash = await hashSecret(password);
    return db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('portal_invitations')
        .set({ used_at: clock.now() })
        .where('token_hash', '=', sha256(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', clock.now())
        .returning('user_id')
        .executeTakeFirst();
      if (!used) throw new DomainError('NOT_FOUND', undefined, 'This invitation link is not valid any more');
      const row = await trx
        .updateTable('portal_users')
        .set({ password_hash: hash })
        .where('id', '=', used.user_id)
        .where('removed_at', 'is', null)
        .returning(['id', 'email', 'role', 'account_id'])
        .executeTakeFirst();
      if (!row) throw new DomainError('NOT_FOUND', undefined, 'This invitation link is not valid any more');
      const user = userOf(row);
      await deps.audit.record(trx, { actor: `member:${user.id}`, email: user.email, address }, {
        action: 'member.accept-invitation',
        accountId: user.accountId,
        target: `member:${user.id}`,
      });
      return user;
    });
  }

  /**
   * Checks an email and password. Unknown email and wrong password look the same (same message, a
   * scrypt check either way). Failure limits (decisions 6 and 7): 10 failures for the e-mail from one
   * address, or 10 failures from the address over any e-mails (password spraying), in any 15
   * minutes, then 429 there before any password is hashed, the right password included, until the
   * oldest failure leaves the window; the same e-mail from another address is not affected.
   */
  async function signIn(rawEmail: string, password: string, address: string): Promise<PortalUser> {
    const email = rawEmail.trim().toLowerCase();
    const plan = deps.failures.signInAttempt({ email, address });
    const [emailKey, addressKey] = plan.deciding as [FailureKey, FailureKey];
    // The person and the attempt's failure times in one statement (one row even for an unknown e-mail).
    const found = await sql<{ id: number | null; email: string | null; role: PortalRole | null; account_id: number | null; password_hash: string | null; failures: number[] | null; address_failures: number[] | null }>`
      SELECT u.id, u.email, u.role, u.account_id, u.password_hash, ${failureTimesOf(emailKey)} AS failures, ${failureTimesOf(addressKey)} AS address_failures
        FROM (SELECT 1) AS one LEFT JOIN portal_users u ON u.email = ${email} AND u.removed_at IS NULL`.execute(db);
    const row = found.rows[0]!;
    const hash = row.password_hash ?? (await DUMMY_HASH_PROMISE);
    const seen = new Map([[emailKey.key, row.failures], [addressKey.key, row.address_failures]]);
    const judged = await deps.failures.judge(plan, () => verifySecret(password.slice(0, MAX_PASSWORD_LENGTH), hash), seen);
    if (judged.outcome === 'refused') {
      throw new DomainError('RATE_LIMITED', { retryAfterSeconds: judged.retryAfterSeconds }, 'Too many failed sign-ins: try again later');
    }
    if (judged.outcome === 'wrong' || row.id === null || row.password_hash === null) {
      throw new DomainError('UNAUTHORIZED', { reason: 'invalid-sign-in' }, 'Email or password is incorrect');
    }
    return userOf({ id: row.id, email: row.email!, role: row.role!, account_id: row.account_id });
  }

  async function members(accountId: number) {
    return db
      .selectFrom('portal_users')
      .select(['id', 'email', 'password_hash', 'created_at'])
      .where('account_id', '=', accountId)
      .where('removed_at', 'is', null)
      .orderBy('id')
      .execute()
      .then((rows) => rows.map((r) => ({ id: Number(r.id), email: r.email, active: r.password_hash !== null, createdAt: r.created_at })));
  }

  async function operators() {
    return db.selectFrom('portal_users').select(['id', 'email', 'created_at']).where('role', '=', 'OPERATOR').where('removed_at', 'is', null).orderBy('id').execute();
  }

  /** One page of the account's members (invited or active), oldest first; an unknown account is a 404. */
  async function memberPage(accountId: number, asked: { page: number; pageSize: number }) {
    await deps.accounts.get(accountId);
    const { rows, total } = await paginate(
      db
        .selectFrom('portal_users')
        .select(['id', 'email', 'password_hash', 'created_at'])
        .where('account_id', '=', accountId)
        .where('role', '=', 'MEMBER')
        .where('removed_at', 'is', null)
        .orderBy('id'),
      asked,
    );
    return { rows: rows.map((r) => ({ id: Number(r.id), email: r.email, active: r.password_hash !== null, createdAt: r.created_at })), total };
  }

  /** One page of the operators, oldest first. */
  async function operatorPage(asked: { page: number; pageSize: number }) {
    return paginate(db.selectFrom('portal_users').select(['id', 'email', 'created_at']).where('role', '=', 'OPERATOR').where('removed_at', 'is', null).orderBy('id'), asked);
  }

  /** Removes a member: their sessions end with them. */
  async function removeMember(actor: Actor, accountId: number, memberId: number) {
    await deps.accounts.get(accountId);
    await db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('portal_users')
        .set({ removed_at: clock.now() })
        .where('id', '=', memberId)
        .where('account_id', '=', accountId)
        .where('removed_at', 'is', null)
        .returning(['email'])
        .executeTakeFirst();
      if (!row) throw new DomainError('NOT_FOUND', undefined, `Member ${memberId} not found`);
      await trx.updateTable('portal_sessions').set({ revoked_at: clock.now() }).where('user_id', '=', memberId).where('revoked_at', 'is', null).execute();
      await deps.audit.record(trx, actor, { action: 'member.remove', accountId, target: `member:${memberId}`, before: { email: row.email } });
    });
  }

  /** Removes an operator (DELETE /admin/operators/{id}): their sessions end at once, in the same transaction. */
  async function removeOperator(actor: Actor, operatorId: number) {
    await db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('portal_users')
        .set({ removed_at: clock.now() })
        .where('id', '=', operatorId)
        .where('role', '=', 'OPERATOR')
        .where('removed_at', 'is', null)
        .returning(['email'])
        .executeTakeFirst();
      if (!row) throw new DomainError('NOT_FOUND', undefined, `Operator ${operatorId} not found`);
      await trx.updateTable('portal_sessions').set({ revoked_at: clock.now() }).where('user_id', '=', operatorId).where('revoked_at', 'is', null).execute();
      await deps.audit.record(trx, actor, { action: 'operator.remove', target: `operator:${operatorId}`, before: { email: row.email } });
    });
  }

  /** Sandbox: the demo account's member, with a known password (printed at start). */
  async function ensureDemoMember(accountId: number, email: string, password: string) {
    const hash = await hashSecret(password);
    const existing = await db.selectFrom('portal_users').select(['id', 'account_id']).where('email', '=', email).where('removed_at', 'is', null).executeTakeFirst();
    if (existing) {
      await db.updateTable('portal_users').set({ password_hash: hash }).where('id', '=', existing.id).execute();
      return;
    }
    try {
      await db.transaction().execute((trx) => insertUser(trx, email, 'MEMBER', accountId, hash));
    } catch (error) {
      // Instances starting together on one database: another one created the member first.
      if (!(error instanceof DomainError && error.code === 'CONFLICT')) throw error;
      await db.updateTable('portal_users').set({ password_hash: hash }).where('email', '=', email).where('removed_at', 'is', null).execute();
    }
  }

  return { createOperator, inviteMember, openInvitation, acceptInvitation, signIn, members, memberPage, operators, operatorPage, removeMember, removeOperator, ensureDemoMember };
}

export type PortalPeopleService = ReturnType<typeof createPortalPeopleService>;
