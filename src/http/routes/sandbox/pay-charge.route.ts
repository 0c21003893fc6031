import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { toCents } from '../../money-edge.ts';
import { sandboxAccountId } from '../../plugins/sandbox-actor.ts';
import { Amount, Document, ParticipantIspb } from '../../schemas/common.ts';
import { sandboxTransactionView, SandboxTransaction } from './sandbox-transaction-view.ts';

/** A payer at another bank pays a charge (a cash-in transactionId or a cob txid) now. */
export const payChargeRoute: RouteModule<SandboxContext> = (app, c) =>
  app.post(
    '/sandbox/charges/:id/pay',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Pay a charge as a simulated payer',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: Type.Optional(
          Type.Object({
            accountId: Type.Optional(Type.Integer({ minimum: 1, description: 'with the admin token' })),
            amount: Type.Optional(Amount({ description: 'another amount only when modalidadeAlteracao is 1' })),
            payer: Type.Optional(
              Type.Object({
                name: Type.String({ minLength: 1, maxLength: 100 }),
                document: Document(),
                ispb: ParticipantIspb(),
              }),
            ),
          }),
        ),
        response: { 200: SandboxTransaction },
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const accountId = await sandboxAccountId(request, c, body.accountId);
      const tx = await c.sandboxNetwork!.payCharge(accountId, request.params.id, {
        ...(body.amount !== undefined ? { amount: toCents(body.amount, 'amount') } : {}),
        ...(body.payer ? { payer: body.payer } : {}),
      });
      return sandboxTransactionView(tx);
    },
  );
