import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import type { DB } from '../../db/schema.ts';
import type { PortalUser } from './portal-people.service.ts';

export const SESSION_IDLE_MS = 12 * 3600_000;
// last_seen_at is written at most once a minute: a page view should not cost a write.
const TOUCH_EVERY_MS = 60_000;

export interface PortalSession {
  user: PortalUser;
  csrfToken: string;
  /** A member's account is suspended (issue 30): the pages say so; its money-moving forms are refused. */
  accountSuspended?: boolean;
  /** Whether the person signs in with a second step (TOTP). */
  twoFactor: boolean;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Server-side sessions: the browser holds a random id, the database its SHA-256, so a leaked table
 * opens no session. A session ends after 12 hours without use, at sign-out, or when its user goes.
 */
export function createPortalSessionService(deps: { db: Kysely<DB>; clock: Clock }) {
  const { db, clock } = deps;

  async function open(user: PortalUser, address: string | null): Promise<{ id: string; csrfToken: string }> {
    const id = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const now = clock.now();
    await db
      .insertInto('portal_sessions')
      .values({ id_hash: sha256(id), user_id: user.id, csrf_token: csrfToken, created_at: now, last_seen_at: now, revoked_at: null, address })
      .execute();
    return { id, csrfToken };
  }

  async function find(id: string): Promise<PortalSession | undefined> {
    const now = clock.now();
    const row = await db
      .selectFrom('portal_sessions as s')
      .innerJoin('portal_users as u', 'u.id', 's.user_id')
      .leftJoin('accounts as a', 'a.id', 'u.account_id')
      .leftJoin('portal_two_factor as f', 'f.user_id', 'u.id')
      .select(['s.id_hash', 's.csrf_token', 's.last_seen_at', 's.revoked_at', 'u.id', 'u.email', 'u.role', 'u.account_id', 'u.removed_at', 'a.status as account_status', 'f.enabled_at as two_factor_at'])
      .where('s.id_hash', '=', sha256(id))
      .executeTakeFirst();
    if (!row || row.revoked_at || row.removed_at) return undefined;
    if (now.getTime() - row.last_seen_at.getTime() > SESSION_IDLE_MS) return undefined;
    if (now.getTime() - row.last_seen_at.getTime() > TOUCH_EVERY_MS) {
      await db.updateTable('portal_sessions').set({ last_seen_at: now }).where('id_hash', '=', row.id_hash).execute();
    }
    return {
      user: { id: Number(row.id), email: row.email, role: row.role, accountId: row.account_id },
      csrfToken: row.csrf_token,
      twoFactor: row.two_factor_at !== null,
      ...(row.account_status === 'SUSPENDED' ? { accountSuspended: true } : {}),
    };
  }

  async function revoke(id: string) {
    await db.updateTable('portal_sessions').set({ revoked_at: clock.now() }).where('id_hash', '=', sha256(id)).where('revoked_at', 'is', null).execute();
  }

  return { open, find, revoke };
}

export type PortalSessionService = ReturnType<typeof createPortalSessionService>;
