import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { WebhookList, webhookListView } from '../../../webhooks/http-schemas.ts';

export const listAccountWebhooksRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id/webhooks',
    {
      schema: {
        tags: ['admin'],
        summary: "The account's webhook registrations (active, and those a 410 answer disabled)",
        params: Type.Object({ id: NumericId }),
        response: { 200: WebhookList },
      },
    },
    async (request) => {
      const accountId = Number(request.params.id);
      return webhookListView(accountId, await c.webhooks.list(accountId));
    },
  );
