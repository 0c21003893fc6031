import { Type } from '@sinclair/typebox';
import { DomainError, ValidationError } from '../../../domain/errors/domain-error.ts';
import { Med } from '../../../services/med/med-view.ts';
import { rateLimitHeaders } from '../../../services/rate-limit/fixed-window.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { OneOf } from '../../../http/schemas/one-of.ts';
import { MED_STATUSES } from '../../../domain/closed-lists.ts';

/** Decisions 4.16: 60 requests a minute per account. */
export const MED_LIST_RATE = { limit: 60, windowSeconds: 60 };

const Query = Type.Object({
  status: Type.Optional(OneOf(MED_STATUSES)),
  isReconciled: Type.Optional(Type.Boolean()),
  startDate: Type.Optional(Type.String({ format: 'date-time' })),
  endDate: Type.Optional(Type.String({ format: 'date-time' })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

const MedPage = Type.Object({
  data: Type.Array(Med),
  metadata: Type.Object({ total: Type.Number(), page: Type.Number(), pageSize: Type.Number(), totalPages: Type.Number() }),
});

/** GET /api/med: the MEDs opened against the account's received PIX, newest first. */
export const listMedRoute: RouteModule<ApiContext> = (app, c) =>
  app.get(
    '/api/med',
    {
      onRequest: [
        requireAccount(c, 'pix:read'),
        // Counted after authentication (per account) and before validation, so bad requests count too.
        async (request, reply) => {
          const decision = await c.rateLimiter.hit(`med-list:${accountIdOf(request)}`, MED_LIST_RATE);
          reply.headers(rateLimitHeaders(decision));
          if (!decision.allowed) throw new DomainError('RATE_LIMITED', { retryAfterSeconds: decision.resetSeconds });
        },
      ],
      schema: {
        tags: ['med'],
        summary: 'List MEDs (Special Refund Mechanism)',
        security: [{ bearer: [] }],
        querystring: Query,
        response: { 200: MedPage },
      },
    },
    async (request) => {
      const q = request.query;
      const startDate = q.startDate ? new Date(q.startDate) : undefined;
      const endDate = q.endDate ? new Date(q.endDate) : undefined;
      if (startDate && endDate && startDate > endDate) throw new ValidationError(['startDate must not be after endDate']);
      return c.meds.list(
        accountIdOf(request),
        {
          ...(q.status ? { status: q.status } : {}),
          ...(q.isReconciled !== undefined ? { isReconciled: q.isReconciled } : {}),
          ...(startDate ? { startDate } : {}),
          ...(endDate ? { endDate } : {}),
        },
        q.page ?? 1,
        q.pageSize ?? 20,
      );
    },
  );
