import type { Clock } from '../domain/clock.ts';
import type { EventType } from '../db/schema.ts';
import type { WebhookHeader } from '../db/schema/webhooks.ts';
import type { AttemptLog } from './deliveries.repo.ts';
import { deliveryHeaders } from './relay.ts';
import type { AttemptResult, WebhookTransport } from './transport.ts';

/** Where a one-off attempt goes: a registered URL (with its custom headers) or a URL given for this call. */
export interface OneOffTarget {
  url: string;
  headers: WebhookHeader[];
  webhookId: number | null;
}

/**
 * One attempt now to each target, outside the retry schedule (resends, test events): signed with
 * every secret of the moment, sent in parallel outside any transaction, each bounded by the
 * transport's timeout.
 */
export async function sendToEach(input: {
  transport: WebhookTransport;
  signingClock: Clock;
  secrets: readonly string[];
  messageId: string;
  body: string;
  targets: OneOffTarget[];
  /** The event's trace (resends); none: the current request's trace, or a fresh one. */
  traceId?: string | null;
}): Promise<Array<{ target: OneOffTarget; result: AttemptResult }>> {
  return Promise.all(
    input.targets.map(async (target) => {
      const headers = deliveryHeaders({
        secrets: input.secrets, messageId: input.messageId, body: input.body, custom: target.headers, signedAt: input.signingClock.now(), traceId: input.traceId ?? null,
      });
      return { target, result: await input.transport.send({ url: target.url, body: input.body, headers }) };
    }),
  );
}

/** The attempt-log rows of one-off attempts (they belong to no delivery and have no attempt number). */
export function oneOffLogs(
  attempts: Array<{ target: OneOffTarget; result: AttemptResult }>,
  row: { accountId: number; kind: 'resend' | 'test'; eventRowId: number | null; eventType?: EventType; at: Date },
): AttemptLog[] {
  return attempts.map(({ target, result }) => ({
    accountId: row.accountId,
    eventRowId: row.eventRowId,
    deliveryId: null,
    webhookId: target.webhookId,
    kind: row.kind,
    ...(row.eventType ? { eventType: row.eventType } : {}),
    attempt: null,
    url: target.url,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    responseExcerpt: result.responseExcerpt,
    error: result.error,
    at: row.at,
  }));
}
