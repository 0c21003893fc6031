import type { FastifyReply } from 'fastify';
import { sendJsonText } from '../../event-stream-reply.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { EventList, EventListQuery, eventListJson } from '../../schemas/events.ts';
import { EVENT_PAGE_DEFAULT, parseEventTypes } from '../../../services/events/event-log.service.ts';

/** GET /api/events: the account's events oldest first after a cursor (issue 29). */
export const listEventsRoute: RouteModule<ApiContext> = (app, c) =>
  app.get(
    '/api/events',
    {
      onRequest: requireAccount(c, 'webhook:read'),
      schema: {
        tags: ['events'],
        summary: "The account's events, oldest first, after a cursor; each payload exactly as its webhook carried it",
        querystring: EventListQuery,
        response: { 200: EventList },
      },
    },
    async (request, reply) => {
      const size = request.query.size ?? EVENT_PAGE_DEFAULT;
      const types = parseEventTypes(request.query.type);
      const page = await c.eventLog.page(accountIdOf(request), { after: request.query.after, types, size });
      return sendJsonText(reply as FastifyReply, eventListJson(page, size));
    },
  );
