import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { DB, EventType } from '../../db/schema.ts';
import type { WebhookHeader } from '../../db/schema/webhooks.ts';
import { deliveriesRepo } from '../../webhooks/deliveries.repo.ts';
import { oneOffLogs, sendToEach } from '../../webhooks/one-off-attempts.ts';
import { testPayload } from '../../webhooks/payloads/test-payloads.ts';
import { registrationsRepo } from '../../webhooks/registrations.repo.ts';
import type { WebhookTransport } from '../../webhooks/transport.ts';
import type { ChangeAudit } from '../audit/audit-log.ts';

export interface TestAttempt {
  webhookLogId: number;
  webhookId: number;
  url: string;
  /** Null when no HTTP answer came (timeout, refused connection, refused destination). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** A 2xx answer. */
  delivered: boolean;
  sentAt: Date;
}

/**
 * A test delivery of one event type to each of the account's active URLs for it: the event's shape
 * with sample values (`metadata.test: true`), signed and sent as a real delivery is (custom headers,
 * every signing secret of the moment, the transport's rules and timeout), once, with no retry. Each
 * attempt is logged (kind `test`), so it shows in the delivery log; nothing else is stored.
 */
export function createWebhookTestService(deps: { db: Kysely<DB>; clock: Clock; signingClock: Clock; transport: WebhookTransport }) {
  const { db, clock } = deps;

  async function send(accountId: number, eventType: EventType, audit?: ChangeAudit): Promise<{ eventId: string; attempts: TestAttempt[] }> {
    const account = Number.isSafeInteger(accountId) ? await accountsRepo.byId(db, accountId) : undefined;
    if (!account) throw new DomainError('NOT_FOUND', undefined, `Account ${accountId} not found`);
    const active = await registrationsRepo.activeFor(db, accountId, eventType);
    if (active.length === 0) {
      throw new DomainError('WEBHOOK_NO_URL', { eventType }, `event: no active webhook URL is registered for ${eventType}; register one first`);
    }
    const secrets = await registrationsRepo.signingSecrets(db, accountId, clock.now());
    const eventId = `msg_test_${randomUUID().replaceAll('-', '')}`;
    const body = JSON.stringify(testPayload(eventType, clock.now()));
    const sentAt = clock.now();
    const targets = active.map((w) => ({ url: w.url, headers: w.headers as WebhookHeader[], webhookId: w.id }));
    const results = await sendToEach({ transport: deps.transport, signingClock: deps.signingClock, secrets, messageId: eventId, body, targets });
    const logs = oneOffLogs(results, { accountId, kind: 'test', eventRowId: null, eventType, at: clock.now() });
    const ids = await db.transaction().execute(async (trx) => {
      const written = await deliveriesRepo.insertLogs(trx, logs);
      await audit?.(trx, { accountId, target: `webhook-test:${eventId}`, after: { eventType, urls: active.map((w) => w.url) } });
      return written;
    });
    return {
      eventId,
      attempts: results.map(({ target, result }, i) => ({
        webhookLogId: ids[i]!,
        webhookId: active[i]!.id,
        url: target.url,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        delivered: result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300,
        sentAt,
      })),
    };
  }

  return { send };
}

export type WebhookTestService = ReturnType<typeof createWebhookTestService>;
