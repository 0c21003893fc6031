import { Type } from '@sinclair/typebox';
import { DomainError } from '../../../domain/errors/domain-error.ts';
import { toBrlNumber } from '../../../domain/money.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { Brl } from '../../schemas/common.ts';


/**
 * POST /admin/network/statement-check: the daily statement check, now (our clearing account against
 * the provider's balance); recorded like the daily one and answered. 404 without a provider.
 */
export const runStatementCheckRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/network/statement-check',
    {
      schema: {
        tags: ['admin'],
        summary: "Runs the statement check now: our books against the provider's GET /api/balance (recorded for operators)",
        response: {
          200: Type.Object({
            id: Type.Integer(),
            checkedAt: Type.String({ format: 'date-time' }),
            providerBalance: Type.Union([Brl(), Type.Null()]),
            ourBalance: Brl(),
            difference: Type.Union([Brl(), Type.Null()]),
            payoutsAwaiting: Type.Integer(),
            error: Type.Union([Type.String(), Type.Null()]),
          }),
        },
      },
    },
    async () => {
      if (!c.providerNetwork) throw new DomainError('NOT_FOUND', undefined, 'No provider is configured (PIX_NETWORK=provider)');
      const r = await c.providerNetwork.runStatementCheck();
      return {
        id: r.id,
        checkedAt: r.checkedAt.toISOString(),
        providerBalance: r.providerBalance === null ? null : toBrlNumber(r.providerBalance),
        ourBalance: toBrlNumber(r.ourBalance),
        difference: r.difference === null ? null : toBrlNumber(r.difference),
        payoutsAwaiting: r.payoutsAwaiting,
        error: r.error,
      };
    },
  );
