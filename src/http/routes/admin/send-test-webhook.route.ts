import { Type } from '@sinclair/typebox';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { EventTypeSchema } from '../../../webhooks/http-schemas.ts';

const TestAttempt = Type.Object({
  webhookLogId: Type.Integer(),
  webhookId: Type.Integer(),
  url: Type.String(),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'null when no HTTP answer came' }),
  durationMs: Type.Integer(),
  delivered: Type.Boolean({ description: 'the receiver answered 2xx' }),
  error: Type.Union([Type.String(), Type.Null()]),
  sentAt: Type.String({ format: 'date-time' }),
});

export const sendTestWebhookRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/accounts/:id/webhooks/test',
    {
      schema: {
        tags: ['admin'],
        summary: "Send a test event to the account's active URLs for that event, signed like a real delivery (metadata.test: true), once, and answer each attempt",
        params: Type.Object({ id: NumericId }),
        body: Type.Object({ event: EventTypeSchema }),
        response: {
          200: Type.Object({
            event: EventTypeSchema,
            eventId: Type.String({ description: 'the webhook-id header sent' }),
            attempts: Type.Array(TestAttempt),
          }),
        },
      },
    },
    async (request) => {
      const { event } = request.body;
      const sent = await c.webhookTests.send(Number(request.params.id), event, recordAs(c.audit, adminTokenActor(request.ip), 'webhook.test'));
      return { event, eventId: sent.eventId, attempts: sent.attempts.map((a) => ({ ...a, sentAt: a.sentAt.toISOString() })) };
    },
  );
