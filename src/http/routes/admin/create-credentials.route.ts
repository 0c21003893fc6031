import { Type } from '@sinclair/typebox';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { ALL_SCOPES } from '../../../services/auth/scopes.ts';
import { NumericId } from '../../schemas/common.ts';

export const createCredentialsRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/accounts/:id/credentials',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create OAuth client credentials (the secret is shown only in this answer)',
        params: Type.Object({ id: NumericId }),
        body: Type.Optional(
          Type.Object({
            clientSecret: Type.Optional(Type.String({ minLength: 8, maxLength: 64 })),
            scopes: Type.Optional(
              Type.Array(Type.Union(ALL_SCOPES.map((s) => Type.Literal(s))), { minItems: 1, uniqueItems: true }),
            ),
          }),
        ),
        response: {
          201: Type.Object({ clientId: Type.String({ format: 'uuid-v4' }), clientSecret: Type.String(), scopes: Type.Array(Type.String()) }),
        },
      },
    },
    async (request, reply) => {
      const created = await c.credentials.create(Number(request.params.id), request.body ?? {}, recordAs(c.audit, adminTokenActor(request.ip), 'credential.create'));
      return reply.code(201).send(created);
    },
  );
