import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { sendJsonText } from '../../event-stream-reply.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { EventIdParam, EventView, eventJson } from '../../schemas/events.ts';

/** GET /api/events/{id}: one of the account's events; another account's is a 404. */
export const getEventRoute: RouteModule<ApiContext> = (app, c) =>
  app.get(
    '/api/events/:id',
    {
      onRequest: requireAccount(c, 'webhook:read'),
      schema: {
        tags: ['events'],
        summary: 'One event of the account, its payload exactly as its webhook carried it',
        params: Type.Object({ id: EventIdParam }),
        response: { 200: EventView },
      },
    },
    async (request, reply) => {
      const event = await c.eventLog.get(accountIdOf(request), request.params.id);
      return sendJsonText(reply as FastifyReply, eventJson(event));
    },
  );
