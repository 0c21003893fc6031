import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { EventStreamHeaders, EventStreamQuery, EventStreamResponse } from '../../schemas/events.ts';
import { sendEventStream } from '../../event-stream-reply.ts';

/** GET /api/events/stream: the account's events live, as Server-Sent Events, resumable with Last-Event-ID. */
export const streamEventsRoute: RouteModule<ApiContext> = (app, c) =>
  app.get(
    '/api/events/stream',
    {
      onRequest: requireAccount(c, 'webhook:read'),
      schema: {
        tags: ['events'],
        summary: "The account's events live (Server-Sent Events); resumable with Last-Event-ID",
        querystring: EventStreamQuery,
        headers: EventStreamHeaders,
        response: { 200: EventStreamResponse },
      },
    },
    (request, reply) => sendEventStream(c, accountIdOf(request), request as FastifyRequest, reply as FastifyReply),
  );
