import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';

export const getWebhookSecretRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id/webhook-secret',
    {
      schema: {
        tags: ['admin'],
        summary: "The account's webhook signing secret (whsec_...), created on first request",
        params: Type.Object({ id: NumericId }),
        response: { 200: Type.Object({ secret: Type.String() }) },
      },
    },
    async (request) => ({ secret: await c.webhooks.secretOf(Number(request.params.id)) }),
  );
