import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { transactionsRepo } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { WebhookHeader } from '../../db/schema/webhooks.ts';
import { deliveriesRepo } from '../../webhooks/deliveries.repo.ts';
import { oneOffLogs, sendToEach, type OneOffTarget } from '../../webhooks/one-off-attempts.ts';
import { registrationsRepo } from '../../webhooks/registrations.repo.ts';
import type { WebhookTransport } from '../../webhooks/transport.ts';
import type { WebhookUrlPolicy } from '../../webhooks/url-policy.ts';

export interface ResendResult {
  message: string;
  webhookLogId: number;
  sentAt: Date;
  /** 0 when no HTTP answer came. */
  statusCode: number;
}

/**
 * `POST /api/resend-webhook/{id}`: one attempt now, outside the retry schedule, of the latest event
 * of one of the account's transactions, to each active URL of that event's type (or to a URL given
 * for this resend only). Each attempt is logged; the answer reports the first.
 */
export function createWebhookResendService(deps: { db: Kysely<DB>; clock: Clock; signingClock: Clock; transport: WebhookTransport; urls: WebhookUrlPolicy }) {
  const { db, clock } = deps;

  /**
   * `url`: a one-off URL (no custom headers); `webhookId`: only that registered URL of the event, with
   * its custom headers (the portal's "resend this delivery"); neither: every registered URL.
   */
  async function resend(accountId: number, identifier: string, input: { url?: string | undefined; webhookId?: number | undefined } = {}): Promise<ResendResult> {
    let oneOffUrl: string | undefined;
    if (input.url !== undefined) {
      const checked = deps.urls.checkUrl(input.url);
      if (!checked.ok) throw new ValidationError(checked.problems);
      oneOffUrl = checked.url;
    }
    const tx = await transactionsRepo.findForAccount(db, accountId, identifier, { externalId: true, endToEndId: true });
    if (!tx) throw new DomainError('WEBHOOK_TRANSACTION_NOT_FOUND', undefined, `Transaction ${identifier} not found`);
    const event = await db
      .selectFrom('events')
      .select(['id', 'event_id', 'type', 'trace_id'])
      // The text as emitted (migration 1000: json keeps it; `body` only on rows of older instances).
      .select(sql<string>`COALESCE(body, payload::text)`.as('body'))
      .where('transaction_id', '=', tx.id)
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!event) throw new DomainError('WEBHOOK_NO_EVENT', { transactionId: tx.transaction_id, status: tx.status });
    const targets: OneOffTarget[] = oneOffUrl
      ? [{ url: oneOffUrl, headers: [], webhookId: null }]
      : (await registrationsRepo.activeFor(db, accountId, event.type))
          .filter((w) => input.webhookId === undefined || w.id === input.webhookId)
          .map((w) => ({
            url: w.url,
            headers: w.headers as WebhookHeader[],
            webhookId: w.id,
          }));
    if (targets.length === 0) throw new DomainError('WEBHOOK_NO_URL', { eventType: event.type });

    const secrets = await registrationsRepo.signingSecrets(db, accountId, clock.now());
    const body = event.body;
    const sentAt = clock.now();
    const attempts = await sendToEach({ transport: deps.transport, signingClock: deps.signingClock, secrets, messageId: event.event_id, body, targets, traceId: event.trace_id });
    const logs = oneOffLogs(attempts, { accountId, kind: 'resend', eventRowId: event.id, at: clock.now() });
    const ids = await deliveriesRepo.insertLogs(db, logs);
    const first = attempts[0]!.result;
    const outcome = first.statusCode !== null ? `the receiver answered ${first.statusCode}` : `no answer: ${first.error}`;
    return {
      message: `Webhook resent to ${targets.length} URL${targets.length > 1 ? 's' : ''}; first attempt: ${outcome}`,
      webhookLogId: ids[0]!,
      sentAt,
      statusCode: first.statusCode ?? 0,
    };
  }

  return { resend };
}

export type WebhookResendService = ReturnType<typeof createWebhookResendService>;
