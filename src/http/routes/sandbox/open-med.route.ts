import { Type } from '@sinclair/typebox';
import { Med, type MedView } from '../../../services/med/med-view.ts';
import { MED_CAUSES } from '../../../services/med/med-causes.ts';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { toCents } from '../../money-edge.ts';
import { sandboxAccountId } from '../../plugins/sandbox-actor.ts';
import { Amount } from '../../schemas/common.ts';

/** POST /sandbox/med: another bank opens a MED against a PIX the account received. */
export const openMedRoute: RouteModule<SandboxContext> = (app, c) =>
  app.post(
    '/sandbox/med',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Another bank opens a MED against a received PIX (the disputed amount is blocked as a precaution)',
        body: Type.Object({
          accountId: Type.Optional(Type.Integer({ minimum: 1, description: 'with the admin token' })),
          endToEndId: Type.String({ pattern: '^[a-zA-Z0-9]{32}$' }),
          cause: Type.Optional(Type.Union(MED_CAUSES.map((cause) => Type.Literal(cause)))),
          description: Type.Optional(Type.String({ maxLength: 2000 })),
          amount: Type.Optional(Amount({ description: 'the disputed amount; the whole PIX when absent' })),
        }),
        response: { 201: Med },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const accountId = await sandboxAccountId(request, c, body.accountId);
      // The simulated network reports the infraction; it reaches the MED service as any network notice would.
      const med = await c.sandboxNetwork!.reportInfraction({
        accountId,
        endToEndId: body.endToEndId,
        cause: body.cause ?? 'OTHER',
        description: body.description ?? null,
        ...(body.amount !== undefined ? { amount: toCents(body.amount, 'amount') } : {}),
      });
      return reply.code(201).send(med as MedView);
    },
  );
