import { Type } from '@sinclair/typebox';
import { adminTokenActor } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';

export const removeMemberRoute: RouteModule<AdminContext> = (app, c) =>
  app.delete(
    '/admin/accounts/:id/members/:memberId',
    {
      schema: {
        tags: ['admin'],
        summary: 'Remove a member from the account: their portal sessions end at once and their invitation link stops working',
        params: Type.Object({ id: NumericId, memberId: NumericId }),
        response: { 204: Type.Null({ description: 'Removed' }) },
      },
    },
    async (request, reply) => {
      await c.portalPeople.removeMember(adminTokenActor(request.ip), Number(request.params.id), Number(request.params.memberId));
      return reply.code(204).send(null);
    },
  );
