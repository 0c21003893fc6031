import { Type, type Static } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { pageAsked, PageOf, PageQuery, pageView } from '../../schemas/pagination.ts';
import { ATTEMPT_STATUSES, type AttemptRow } from '../../../webhooks/attempts.repo.ts';
import { EventTypeSchema } from '../../../webhooks/http-schemas.ts';
import { OneOf } from '../../../http/schemas/one-of.ts';
import { ATTEMPT_KINDS } from '../../../domain/closed-lists.ts';


const Attempt = Type.Object({
  id: Type.Integer({ description: 'the attempt log id (webhookLogId)' }),
  kind: OneOf(ATTEMPT_KINDS, {
    description: 'delivery: the relay (with retries); resend: POST /api/resend-webhook or the portal; test: a test event',
  }),
  event: EventTypeSchema,
  eventId: Type.Union([Type.String(), Type.Null()], { description: 'the webhook-id header of the delivered event (null for a test event)' }),
  // One schema with its format (not a union), so the format is where readers and checks look for it.
  transactionId: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uuid', description: 'the transaction the event is about, when there is one' }),
  webhookId: Type.Union([Type.Integer(), Type.Null()], { description: 'the registration the attempt went to (null for a one-off resend URL)' }),
  url: Type.String(),
  status: Type.Unsafe<(typeof ATTEMPT_STATUSES)[number]>({ type: 'string', enum: [...ATTEMPT_STATUSES], description: 'delivered: a 2xx answer; failed: any other answer, or none' }),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'the receiver\'s HTTP status; null when no answer came' }),
  durationMs: Type.Integer(),
  attempt: Type.Union([Type.Integer(), Type.Null()], { description: 'the number of this attempt of its delivery (1, 2, ...); null for resends and tests' }),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when the delivery is tried again after this attempt (null when none will be)' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'why no answer came (timeout, refused connection or destination)' }),
  responseExcerpt: Type.Union([Type.String(), Type.Null()], { description: 'the first 1 KiB of the answer' }),
  sentAt: Type.String({ format: 'date-time' }),
});

function attemptView(r: AttemptRow): Static<typeof Attempt> {
  const code = r.status_code;
  // The next try belongs to the delivery's latest attempt only, while the delivery is still pending.
  const retried = r.kind === 'delivery' && r.delivery_status === 'pending' && r.attempt !== null && r.attempt === r.delivery_attempts;
  return {
    id: Number(r.id),
    kind: r.kind,
    event: r.event!,
    eventId: r.event_id,
    transactionId: r.transaction_id,
    webhookId: r.webhook_id === null ? null : Number(r.webhook_id),
    url: r.url,
    status: code !== null && code >= 200 && code < 300 ? 'delivered' : 'failed',
    statusCode: code,
    durationMs: r.duration_ms,
    attempt: r.attempt,
    nextAttemptAt: retried && r.next_attempt_at ? new Date(r.next_attempt_at).toISOString() : null,
    error: r.error,
    responseExcerpt: r.response_excerpt,
    sentAt: r.created_at.toISOString(),
  };
}

export const listWebhookDeliveriesRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id/webhook-deliveries',
    {
      schema: {
        tags: ['admin'],
        summary: "The account's webhook delivery attempts, newest first: event, transaction, URL, status code, duration, attempt number and next attempt",
        params: Type.Object({ id: NumericId }),
        querystring: Type.Object({
          status: Type.Optional(Type.Unsafe<(typeof ATTEMPT_STATUSES)[number]>({ type: 'string', enum: [...ATTEMPT_STATUSES], description: 'delivered (2xx) or failed' })),
          event: Type.Optional(EventTypeSchema),
          ...PageQuery,
        }),
        response: { 200: PageOf(Attempt) },
      },
    },
    async (request) => {
      const asked = pageAsked(request.query);
      const { status, event } = request.query;
      const { rows, total } = await c.webhookDeliveryLog.page(Number(request.params.id), { status, event }, asked);
      return pageView(rows.map(attemptView), total, asked);
    },
  );
