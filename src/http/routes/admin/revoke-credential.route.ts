import { Type } from '@sinclair/typebox';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';

export const revokeCredentialRoute: RouteModule<AdminContext> = (app, c) =>
  app.delete(
    '/admin/accounts/:id/credentials/:clientId',
    {
      schema: {
        tags: ['admin'],
        summary: "Revoke one of the account's credentials: new tokens are refused and the ones it got stop working at once, on every instance",
        params: Type.Object({ id: NumericId, clientId: Type.String({ format: 'uuid', description: 'the credential\'s clientId' }) }),
        response: { 204: Type.Null({ description: 'Revoked' }) },
      },
    },
    async (request, reply) => {
      await c.credentials.revoke(Number(request.params.id), request.params.clientId.toLowerCase(), recordAs(c.audit, adminTokenActor(request.ip), 'credential.revoke'));
      return reply.code(204).send(null);
    },
  );
