import { Type } from '@sinclair/typebox';
import { DomainError } from '../../../domain/errors/domain-error.ts';
import { rateLimitHeaders } from '../../../services/rate-limit/fixed-window.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { MAX_URL_LENGTH } from '../../../webhooks/url-policy.ts';

/** Decisions 4.16: 60 resends a minute per account, counted in the database (shared by instances). */
export const RESEND_RATE = { limit: 60, windowSeconds: 60 };

/** POST /api/resend-webhook/{transactionIdentifier}: one attempt now to each URL of the transaction's event. */
export const resendWebhookRoute: RouteModule<ApiContext> = (app, c) =>
  app.post(
    '/api/resend-webhook/:transactionIdentifier',
    {
      onRequest: [
        requireAccount(c, 'webhook:write'),
        // Counted per account after authentication, before validation: every call counts.
        async (request, reply) => {
          const decision = await c.rateLimiter.hit(`resend:${accountIdOf(request)}`, RESEND_RATE);
          reply.headers(rateLimitHeaders(decision));
          if (!decision.allowed) {
            throw new DomainError(
              'RATE_LIMITED',
              { retryAfterSeconds: decision.resetSeconds },
              `Too many webhook resends: at most ${RESEND_RATE.limit} a minute per account. Retry after ${decision.resetSeconds} s.`,
            );
          }
        },
      ],
      // The body is optional: no body means {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: ['webhooks'],
        summary: "Resend a transaction's latest webhook now (to its event's URLs, or once to the given url)",
        security: [{ bearer: [] }],
        params: Type.Object({
          transactionIdentifier: Type.String({
            minLength: 1,
            maxLength: 255,
            description: 'numeric id, transactionId, externalId or end-to-end id',
          }),
        }),
        body: Type.Object({
          url: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'used for this resend only, not stored' })),
        }),
        response: {
          200: Type.Object({
            message: Type.String(),
            webhookLogId: Type.Number(),
            sentAt: Type.String(),
            statusCode: Type.Number({ description: 'the HTTP status the destination answered; 0 when no answer came' }),
          }),
        },
      },
    },
    async (request) => {
      const result = await c.webhookResend.resend(accountIdOf(request), request.params.transactionIdentifier, { url: request.body.url });
      return { ...result, sentAt: result.sentAt.toISOString() };
    },
  );
