import { Type } from '@sinclair/typebox';
import { adminTokenActor } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';

export const inviteMemberRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/accounts/:id/members',
    {
      schema: {
        tags: ['admin'],
        summary: "Invite a member of the account to the portal: a one-time link (72 h) where they set a password",
        params: Type.Object({ id: NumericId }),
        body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) }),
        response: { 201: Type.Object({ id: Type.Number(), email: Type.String(), invitationUrl: Type.String() }) },
      },
    },
    async (request, reply) => {
      const invited = await c.portalPeople.inviteMember(adminTokenActor(request.ip), Number(request.params.id), request.body.email);
      return reply.code(201).send(invited);
    },
  );
