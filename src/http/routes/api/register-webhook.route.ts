import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { RegistrationBody, registrationBody } from '../../../webhooks/http-schemas.ts';

const Answer = Type.Object({ success: Type.Boolean(), message: Type.String() });

export const DISABLED_MESSAGE =
  'Webhook registration through the API is temporarily disabled; webhooks are managed in the account dashboard. Nothing was stored.';

/**
 * POST /api/webhooks. The spec's current behaviour: disabled, answering 200 `success: false` and
 * storing nothing (the body is then not examined). WEBHOOK_ROUTES_ENABLED=true turns on the intended
 * behaviour: the admin route's rules, for the caller's own account.
 */
export const registerWebhookRoute: RouteModule<ApiContext> = (app, c) => {
  const enabled = c.config.webhookRoutesEnabled;
  app.post(
    '/api/webhooks',
    {
      onRequest: requireAccount(c, 'webhook:write'),
      schema: {
        tags: ['webhooks'],
        summary: enabled
          ? 'Register a webhook URL for one event (at most 3 active per event); the same URL again updates its headers'
          : 'Temporarily disabled: answers success false and stores nothing (WEBHOOK_ROUTES_ENABLED=true enables it)',
        security: [{ bearer: [] }],
        ...(enabled ? { body: registrationBody(c.config.mode) } : {}),
        response: { 200: Answer },
      },
    },
    async (request) => {
      if (!enabled) return { success: false, message: DISABLED_MESSAGE };
      const { created } = await c.webhooks.register(accountIdOf(request), request.body as typeof RegistrationBody.static);
      return { success: true, message: created ? 'Webhook registered.' : 'Webhook already registered for this event: headers updated and version incremented.' };
    },
  );
};
