import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { toCents } from '../../money-edge.ts';
import { sandboxAccountId } from '../../plugins/sandbox-actor.ts';
import { Amount } from '../../schemas/common.ts';
import { SandboxTransaction, sandboxTransactionView } from './sandbox-transaction-view.ts';

export const refundPayoutRoute: RouteModule<SandboxContext> = (app, c) =>
  app.post(
    '/sandbox/payouts/:transactionId/refund',
    {
      schema: {
        tags: ['sandbox'],
        summary: "The receiving bank returns part or all of a payout: a 'Refund out' (CREDIT)",
        params: Type.Object({ transactionId: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: Type.Object({
          accountId: Type.Optional(Type.Integer({ minimum: 1, description: 'with the admin token' })),
          amount: Amount(),
        }),
        response: { 201: SandboxTransaction },
      },
    },
    async (request, reply) => {
      const accountId = await sandboxAccountId(request, c, request.body.accountId);
      const tx = await c.sandboxNetwork!.returnPayout(accountId, request.params.transactionId, toCents(request.body.amount, 'amount'));
      return reply.code(201).send(sandboxTransactionView(tx));
    },
  );
