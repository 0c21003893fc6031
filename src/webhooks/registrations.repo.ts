import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction as Trx } from 'kysely';
import type { DB, EventType } from '../db/schema.ts';
import type { WebhookHeader, WebhookRow } from '../db/schema/webhooks.ts';
import { signingSecretsAt } from './signing-secrets.ts';
import { paginate } from '../db/paginate.ts';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

type Db = Kysely<DB> | Trx<DB>;

/** SQL for webhook registrations and the accounts' signing secrets. */
export const registrationsRepo = {
  /** Registrations shown to the account: active and disabled ones, never deleted ones. */
  async listForAccount(db: Db, accountId: number): Promise<WebhookRow[]> {
    return db
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
  },

  /** One page of `listForAccount` (the admin list), in the same order. */
  async pageForAccount(db: Db, accountId: number, asked: { page: number; pageSize: number }): Promise<{ rows: WebhookRow[]; total: number }> {
    return paginate(db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).where('deleted_at', 'is', null).orderBy('id'), asked);
  },

  async activeFor(db: Db, accountId: number, eventType: EventType): Promise<WebhookRow[]> {
    return db
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('event_type', '=', eventType)
      .where('is_active', '=', true)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
  },

  async findByUrl(db: Db, accountId: number, eventType: EventType, url: string): Promise<WebhookRow | undefined> {
    return db
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('event_type', '=', eventType)
      .where('url', '=', url)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  },

  async insert(db: Db, row: { accountId: number; eventType: EventType; url: string; headers: WebhookHeader[]; at: Date }): Promise<WebhookRow> {
    return db
      .insertInto('webhooks')
      .values({
        account_id: row.accountId,
        event_type: row.eventType,
        url: row.url,
        headers: JSON.stringify(row.headers),
        disabled_reason: null,
        created_at: row.at,
        updated_at: row.at,
        deleted_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Re-registration: new headers, next version, active again. */
  async refresh(db: Db, id: number, headers: WebhookHeader[], at: Date): Promise<WebhookRow> {
    return db
      .updateTable('webhooks')
      .set((eb) => ({
        headers: JSON.stringify(headers),
        version: eb('version', '+', 1),
        is_active: true,
        disabled_reason: null,
        updated_at: at,
      }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async softDelete(db: Db, id: number, at: Date): Promise<boolean> {
    const result = await db
      .updateTable('webhooks')
      .set({ deleted_at: at, is_active: false, updated_at: at })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** A 410 Gone from the receiver turns the registration off. */
  async disable(db: Db, ids: number[], reason: string, at: Date): Promise<void> {
    if (ids.length === 0) return;
    await db
      .updateTable('webhooks')
      .set({ is_active: false, disabled_reason: reason, updated_at: at })
      .where('id', 'in', ids)
      .where('is_active', '=', true)
      .execute();
  },

  /** The account's signing secret, created (once, whoever asks first) when it has none. */
  async ensureSecret(db: Db, accountId: number, at: Date): Promise<string> {
    const created = await db
      .insertInto('webhook_secrets')
      .values({ account_id: accountId, secret: newSecret(), created_at: at })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .returning('secret')
      .executeTakeFirst();
    if (created) return created.secret;
    const row = await db.selectFrom('webhook_secrets').select('secret').where('account_id', '=', accountId).executeTakeFirstOrThrow();
    return row.secret;
  },

  /** The secrets that sign the account's deliveries at `at` (created when it has none): see signing-secrets.ts. */
  async signingSecrets(db: Db, accountId: number, at: Date): Promise<string[]> {
    await registrationsRepo.ensureSecret(db, accountId, at);
    const row = await db
      .selectFrom('webhook_secrets')
      .select(['secret', 'previous_secret', 'previous_valid_until'])
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return signingSecretsAt(row, at);
  },

  /**
   * A new secret for the account; the current one becomes the previous one, signing beside it until
   * `previousValidUntil`. A secret replaced earlier (a second rotation within one overlap) stops at
   * once. An account that had no secret gets its first one, with no previous secret.
   */
  async rotateSecret(db: Db, accountId: number, at: Date, previousValidUntil: Date): Promise<{ secret: string; previousSecretValidUntil: Date | null }> {
    const secret = newSecret();
    const first = await db
      .insertInto('webhook_secrets')
      .values({ account_id: accountId, secret, created_at: at })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .returning('secret')
      .executeTakeFirst();
    if (first) return { secret, previousSecretValidUntil: null };
    // In an UPDATE, `secret` on the right is the row's value before this statement.
    await db
      .updateTable('webhook_secrets')
      .set((eb) => ({ previous_secret: eb.ref('secret'), secret, previous_valid_until: previousValidUntil, rotated_at: at }))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return { secret, previousSecretValidUntil: previousValidUntil };
  },
};
