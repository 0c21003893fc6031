import type { Kysely, Transaction } from 'kysely';
import type { ChangeAudit } from '../audit/audit-log.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { DB, EventType } from '../../db/schema.ts';
import type { WebhookHeader, WebhookRow } from '../../db/schema/webhooks.ts';
import { registrationsRepo } from '../../webhooks/registrations.repo.ts';
import { checkWebhookHeaders, type WebhookUrlPolicy } from '../../webhooks/url-policy.ts';

export const MAX_ACTIVE_URLS_PER_EVENT = 3;

export interface RegistrationInput {
  eventType: EventType;
  url: string;
  headers?: WebhookHeader[] | undefined;
}

/**
 * Webhook registrations of an account (admin routes and the intended `POST/GET /api/webhooks`).
 * The account row is locked while registering, so two concurrent registrations can never both take
 * the third active slot of an event.
 */
export function createWebhookRegistrationService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  /** The URL rules of this mode (the sandbox also takes local HTTP; production resolves the host). */
  urls: WebhookUrlPolicy;
  /** WEBHOOK_SECRET_OVERLAP_S: how long a rotated-out secret still signs beside the new one. */
  secretOverlapS: number;
}) {
  const { db, clock } = deps;

  async function requireAccount(accountId: number) {
    const account = Number.isSafeInteger(accountId) ? await accountsRepo.byId(db, accountId) : undefined;
    if (!account) throw new DomainError('NOT_FOUND', undefined, `Account ${accountId} not found`);
  }

  /** Adds a URL for an event, or (same URL again) replaces its headers and bumps its version. */
  async function register(accountId: number, input: RegistrationInput, audit?: ChangeAudit): Promise<{ webhook: WebhookRow; created: boolean }> {
    const headers = input.headers ?? [];
    const checked = deps.urls.checkUrl(input.url);
    const problems = [...(checked.ok ? [] : checked.problems), ...checkWebhookHeaders(headers)];
    // The host is judged now (before the transaction: a network call), as a delivery would.
    if (checked.ok) problems.push(...(await deps.urls.checkHost(checked.url)));
    if (!checked.ok || problems.length > 0) throw new ValidationError(problems);
    const url = checked.url;
    const result = await db.transaction().execute(async (trx) => {
      const done = await registerIn(trx);
      await audit?.(trx, { accountId, target: `webhook:${done.webhook.id}`, after: { eventType: input.eventType, url: done.webhook.url, headers: headers.map((h) => h.key) } });
      return done;
    });
    return result;

    async function registerIn(trx: Transaction<DB>) {
      const account = Number.isSafeInteger(accountId) ? await accountsRepo.byIdForUpdate(trx, accountId) : undefined;
      if (!account) throw new DomainError('NOT_FOUND', undefined, `Account ${accountId} not found`);
      const now = clock.now();
      await registrationsRepo.ensureSecret(trx, accountId, now);
      const existing = await registrationsRepo.findByUrl(trx, accountId, input.eventType, url);
      if (existing?.is_active) {
        return { webhook: await registrationsRepo.refresh(trx, existing.id, headers, now), created: false };
      }
      const active = await registrationsRepo.activeFor(trx, accountId, input.eventType);
      if (active.length >= MAX_ACTIVE_URLS_PER_EVENT) {
        throw new DomainError('WEBHOOK_URL_LIMIT_REACHED', { eventType: input.eventType, activeUrls: active.length });
      }
      if (existing) return { webhook: await registrationsRepo.refresh(trx, existing.id, headers, now), created: false };
      return { webhook: await registrationsRepo.insert(trx, { accountId, eventType: input.eventType, url: url, headers, at: now }), created: true };
    }
  }

  async function list(accountId: number): Promise<WebhookRow[]> {
    await requireAccount(accountId);
    return registrationsRepo.listForAccount(db, accountId);
  }

  /** One page of the account's registrations (GET /admin/accounts/{id}/webhooks); an unknown account is a 404. */
  async function page(accountId: number, asked: { page: number; pageSize: number }) {
    await requireAccount(accountId);
    return registrationsRepo.pageForAccount(db, accountId, asked);
  }

  async function remove(webhookId: number, audit?: ChangeAudit): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const removed = Number.isSafeInteger(webhookId) && (await registrationsRepo.softDelete(trx, webhookId, clock.now()));
      if (!removed) throw new DomainError('WEBHOOK_NOT_FOUND', undefined, `Webhook ${webhookId} not found`);
      if (audit) {
        const row = await trx.selectFrom('webhooks').select(['account_id', 'event_type', 'url']).where('id', '=', webhookId).executeTakeFirstOrThrow();
        await audit(trx, { accountId: row.account_id, target: `webhook:${webhookId}`, before: { eventType: row.event_type, url: row.url } });
      }
    });
  }

  /** An account removes one of its own registrations; another account's (or an unknown, or a removed) id is WEBHOOK_NOT_FOUND. */
  async function removeOwn(accountId: number, webhookId: number): Promise<void> {
    const owner = Number.isSafeInteger(webhookId)
      ? await db.selectFrom('webhooks').select('account_id').where('id', '=', webhookId).where('deleted_at', 'is', null).executeTakeFirst()
      : undefined;
    if (!owner || owner.account_id !== accountId) throw new DomainError('WEBHOOK_NOT_FOUND', undefined, `Webhook ${webhookId} not found`);
    await remove(webhookId);
  }

  /** The account's `whsec_` signing secret, created on first need. */
  async function secretOf(accountId: number): Promise<string> {
    await requireAccount(accountId);
    return registrationsRepo.ensureSecret(db, accountId, clock.now());
  }

  /**
   * A new signing secret for the account. Deliveries made until `previousSecretValidUntil` (service
   * clock) carry a signature by each secret, so receivers can switch at their own pace; after it,
   * only the new one signs. The secret itself never reaches the audit log.
   */
  async function rotateSecret(accountId: number, audit?: ChangeAudit): Promise<{ secret: string; previousSecretValidUntil: Date | null }> {
    await requireAccount(accountId);
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      const rotated = await registrationsRepo.rotateSecret(trx, accountId, now, new Date(now.getTime() + deps.secretOverlapS * 1000));
      await audit?.(trx, {
        accountId,
        target: `webhook-secret:${accountId}`,
        after: { previousSecretValidUntil: rotated.previousSecretValidUntil?.toISOString() ?? null },
      });
      return rotated;
    });
  }

  return { register, list, page, remove, removeOwn, secretOf, rotateSecret };
}

export type WebhookRegistrationService = ReturnType<typeof createWebhookRegistrationService>;
