import { Type } from '@sinclair/typebox';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';

export const revokeCertificateRoute: RouteModule<AdminContext> = (app, c) =>
  app.delete(
    '/admin/certificates/:fingerprint',
    {
      schema: {
        tags: ['admin'],
        summary: 'Revoke a certificate (token requests with it then get PUB_CERT_NOT_REGISTERED)',
        params: Type.Object({ fingerprint: Type.String({ pattern: '^([0-9a-fA-F]{2}:?){32}$' }) }),
        response: { 204: Type.Null({ description: 'Done' }) },
      },
    },
    async (request, reply) => {
      await c.certificates.revoke(request.params.fingerprint, recordAs(c.audit, adminTokenActor(request.ip), 'certificate.revoke'));
      return reply.code(204).send(null);
    },
  );
