import { Type } from '@sinclair/typebox';
import { adminTokenActor } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';

export const createOperatorRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/operators',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a portal operator (back office): signs in at /portal/sign-in',
        body: Type.Object({
          email: Type.String({ minLength: 3, maxLength: 254 }),
          password: Type.String({ minLength: 12, maxLength: 256, description: 'at least 12 characters' }),
        }),
        response: { 201: Type.Object({ id: Type.Number(), email: Type.String() }) },
      },
    },
    async (request, reply) => {
      const user = await c.portalPeople.createOperator(adminTokenActor(request.ip), request.body);
      return reply.code(201).send({ id: user.id, email: user.email });
    },
  );
