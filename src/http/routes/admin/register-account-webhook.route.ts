import { Type } from '@sinclair/typebox';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { registrationBody, WebhookView, webhookView } from '../../../webhooks/http-schemas.ts';

export const registerAccountWebhookRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/accounts/:id/webhooks',
    {
      schema: {
        tags: ['admin'],
        summary: "Register a webhook URL for one of the account's events (same URL again: new headers and version)",
        params: Type.Object({ id: NumericId }),
        body: registrationBody(c.config.mode),
        response: { 201: WebhookView },
      },
    },
    async (request, reply) => {
      const { webhook } = await c.webhooks.register(Number(request.params.id), request.body, recordAs(c.audit, adminTokenActor(request.ip), 'webhook.register'));
      return reply.code(201).send(webhookView(webhook));
    },
  );
