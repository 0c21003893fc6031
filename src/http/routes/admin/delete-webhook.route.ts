import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import { NumericId } from '../../schemas/common.ts';

export const deleteWebhookRoute: RouteModule = (app, c) =>
  app.delete(
    '/admin/webhooks/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete a webhook registration (its pending deliveries are cancelled)',
        params: Type.Object({ id: NumericId }),
        response: { 204: Type.Null({ description: 'Done' }) },
      },
    },
    async (request, reply) => {
      await c.webhooks.remove(Number(request.params.id));
      return reply.code(204).send(null);
    },
  );
