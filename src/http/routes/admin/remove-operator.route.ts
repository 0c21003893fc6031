import { Type } from '@sinclair/typebox';
import { adminTokenActor } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';

export const removeOperatorRoute: RouteModule<AdminContext> = (app, c) =>
  app.delete(
    '/admin/operators/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Remove an operator: their portal sessions end at once and they cannot sign in again',
        params: Type.Object({ id: NumericId }),
        response: { 204: Type.Null({ description: 'Removed' }) },
      },
    },
    async (request, reply) => {
      await c.portalPeople.removeOperator(adminTokenActor(request.ip), Number(request.params.id));
      return reply.code(204).send(null);
    },
  );
