import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { pageAsked, PageOf, PageQuery, pageView } from '../../schemas/pagination.ts';
import { WebhookView, webhookView } from '../../../webhooks/http-schemas.ts';

// Issue 30: `{data, metadata}` like every other admin list (it answered `{accountId, webhooks, total}`).
export const listAccountWebhooksRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id/webhooks',
    {
      schema: {
        tags: ['admin'],
        summary: "The account's webhook registrations (active, and those a 410 answer disabled), oldest first",
        params: Type.Object({ id: NumericId }),
        querystring: Type.Object(PageQuery),
        response: { 200: PageOf(WebhookView) },
      },
    },
    async (request) => {
      const asked = pageAsked(request.query);
      const { rows, total } = await c.webhooks.page(Number(request.params.id), asked);
      return pageView(rows.map(webhookView), total, asked);
    },
  );
