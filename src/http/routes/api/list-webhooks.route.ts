import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { WebhookList, webhookListView } from '../../../webhooks/http-schemas.ts';

/**
 * GET /api/webhooks. The spec's current behaviour: disabled, an empty list even when webhooks exist.
 * WEBHOOK_ROUTES_ENABLED=true lists the caller's registrations (active and those a 410 disabled).
 */
export const listWebhooksRoute: RouteModule<ApiContext> = (app, c) =>
  app.get(
    '/api/webhooks',
    {
      onRequest: requireAccount(c, 'webhook:read'),
      schema: {
        tags: ['webhooks'],
        summary: c.config.webhookRoutesEnabled
          ? "The account's webhook registrations"
          : 'Temporarily disabled: answers an empty list (WEBHOOK_ROUTES_ENABLED=true enables it)',
        security: [{ bearer: [] }],
        response: { 200: WebhookList },
      },
    },
    async (request) => {
      const accountId = accountIdOf(request);
      if (!c.config.webhookRoutesEnabled) return webhookListView(accountId, []);
      return webhookListView(accountId, await c.webhooks.list(accountId));
    },
  );
