import { Type } from '@sinclair/typebox';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';

export const deleteWebhookRoute: RouteModule<AdminContext> = (app, c) =>
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
      await c.webhooks.remove(Number(request.params.id), recordAs(c.audit, adminTokenActor(request.ip), 'webhook.remove'));
      return reply.code(204).send(null);
    },
  );
