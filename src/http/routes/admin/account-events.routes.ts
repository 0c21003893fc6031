import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import {
  EventIdParam, EventList, EventListQuery, eventJson, eventListJson, EventStreamHeaders, EventStreamQuery, EventStreamResponse, EventView, ReplayAnswer, ReplayBody,
} from '../../schemas/events.ts';
import { EVENT_PAGE_DEFAULT, parseEventTypes } from '../../../services/events/event-log.service.ts';
import { sendEventStream, sendJsonText } from '../../event-stream-reply.ts';

/** The events API for operators (issue 29): the same routes as the account's, under /admin/accounts/{id}. */

const AccountParams = Type.Object({ id: NumericId });

export const listAccountEventsRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id/events',
    {
      schema: {
        tags: ['admin'],
        summary: "The account's events, oldest first, after a cursor (as GET /api/events)",
        params: AccountParams,
        querystring: EventListQuery,
        response: { 200: EventList },
      },
    },
    async (request, reply) => {
      const accountId = Number(request.params.id);
      await c.eventLog.requireAccount(accountId);
      const size = request.query.size ?? EVENT_PAGE_DEFAULT;
      const page = await c.eventLog.page(accountId, { after: request.query.after, types: parseEventTypes(request.query.type), size });
      return sendJsonText(reply as FastifyReply, eventListJson(page, size));
    },
  );

export const streamAccountEventsRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id/events/stream',
    {
      schema: {
        tags: ['admin'],
        summary: "The account's events live, Server-Sent Events (as GET /api/events/stream)",
        params: AccountParams,
        querystring: EventStreamQuery,
        headers: EventStreamHeaders,
        response: { 200: EventStreamResponse },
      },
    },
    async (request, reply) => {
      const accountId = Number(request.params.id);
      await c.eventLog.requireAccount(accountId);
      return sendEventStream(c, accountId, request as FastifyRequest, reply as FastifyReply);
    },
  );

export const getAccountEventRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id/events/:eventId',
    {
      schema: {
        tags: ['admin'],
        summary: 'One event of the account (as GET /api/events/{id})',
        params: Type.Object({ id: NumericId, eventId: EventIdParam }),
        response: { 200: EventView },
      },
    },
    async (request, reply) => {
      const accountId = Number(request.params.id);
      await c.eventLog.requireAccount(accountId);
      return sendJsonText(reply as FastifyReply, eventJson(await c.eventLog.get(accountId, request.params.eventId)));
    },
  );

export const replayAccountDeliveriesRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/accounts/:id/webhook-deliveries/replay',
    {
      schema: {
        tags: ['admin'],
        summary: "Queue the account's webhook deliveries since a time again (as POST /api/webhook-deliveries/replay)",
        params: AccountParams,
        body: ReplayBody,
        response: { 202: ReplayAnswer },
      },
    },
    async (request, reply) => {
      const accountId = Number(request.params.id);
      await c.webhookReplay.requireAccount(accountId);
      return reply.status(202).send(await c.webhookReplay.replay(accountId, request.body, recordAs(c.audit, adminTokenActor(request.ip), 'webhook-deliveries.replay')));
    },
  );
