import { DomainError } from '../../../domain/errors/domain-error.ts';
import { rateLimitHeaders } from '../../../services/rate-limit/fixed-window.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { ReplayAnswer, ReplayBody } from '../../schemas/events.ts';

/** Replays can queue many deliveries each: 10 a minute per account, counted in the database. */
export const REPLAY_RATE = { limit: 10, windowSeconds: 60 };

/** POST /api/webhook-deliveries/replay: the account's deliveries since T queued again (202 {queued}). */
export const replayWebhookDeliveriesRoute: RouteModule<ApiContext> = (app, c) =>
  app.post(
    '/api/webhook-deliveries/replay',
    {
      onRequest: [
        requireAccount(c, 'webhook:write'),
        async (request, reply) => {
          const decision = await c.rateLimiter.hit(`replay:${accountIdOf(request)}`, REPLAY_RATE);
          reply.headers(rateLimitHeaders(decision));
          if (!decision.allowed) {
            throw new DomainError('RATE_LIMITED', { retryAfterSeconds: decision.resetSeconds }, `Too many replays: at most ${REPLAY_RATE.limit} a minute per account. Retry after ${decision.resetSeconds} s.`);
          }
        },
      ],
      schema: {
        tags: ['events'],
        summary: "Queue the account's webhook deliveries since a time again (failed ones, or all), to its active URLs",
        body: ReplayBody,
        response: { 202: ReplayAnswer },
      },
    },
    async (request, reply) => {
      const result = await c.webhookReplay.replay(accountIdOf(request), request.body);
      return reply.status(202).send(result);
    },
  );
