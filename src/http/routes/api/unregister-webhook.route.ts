import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { NumericId } from '../../schemas/common.ts';

/**
 * DELETE /api/webhooks/{id}: the caller removes one of its own registrations (the SDK's
 * `webhooks.delete`, decisions section 8); its pending deliveries are cancelled, as by the admin
 * route. Like the other account webhook routes it acts only with WEBHOOK_ROUTES_ENABLED=true: while
 * registration through the API is disabled the account has no registration it can see, so every id
 * is "not found". Another account's id is "not found" too.
 */
export const unregisterWebhookRoute: RouteModule<ApiContext> = (app, c) =>
  app.delete(
    '/api/webhooks/:id',
    {
      onRequest: requireAccount(c, 'webhook:write'),
      schema: {
        tags: ['webhooks'],
        summary: c.config.webhookRoutesEnabled
          ? "Remove one of the account's webhook registrations (its pending deliveries are cancelled)"
          : 'Temporarily disabled with the other webhook routes: answers 404 (WEBHOOK_ROUTES_ENABLED=true enables it)',
        security: [{ bearer: [] }],
        params: Type.Object({ id: NumericId }),
        response: { 204: Type.Null({ description: 'Removed' }) },
      },
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      if (!c.config.webhookRoutesEnabled) await c.webhooks.removeOwn(-1, id);
      else await c.webhooks.removeOwn(accountIdOf(request), id);
      return reply.code(204).send(null);
    },
  );
