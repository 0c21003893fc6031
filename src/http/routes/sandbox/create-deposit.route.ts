import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import { toCents } from '../../money-edge.ts';
import { sandboxAccountId } from '../../plugins/sandbox-actor.ts';
import { Amount, Document, ParticipantIspb } from '../../schemas/common.ts';
import { sandboxTransactionView, SandboxTransaction } from './sandbox-transaction-view.ts';

export const createDepositRoute: RouteModule = (app, c) =>
  app.post(
    '/sandbox/deposits',
    {
      schema: {
        tags: ['sandbox'],
        summary: "An incoming PIX to the account's key with no charge (a confirmed 'Pix in')",
        body: Type.Object({
          accountId: Type.Optional(Type.Integer({ minimum: 1, description: 'with the admin token' })),
          amount: Amount(),
          payer: Type.Optional(
            Type.Object({
              name: Type.String({ minLength: 1, maxLength: 100 }),
              document: Document(),
              ispb: ParticipantIspb(),
            }),
          ),
        }),
        response: { 201: SandboxTransaction },
      },
    },
    async (request, reply) => {
      const accountId = await sandboxAccountId(request, c, request.body.accountId);
      const tx = await c.sandboxNetwork!.sendPix(accountId, toCents(request.body.amount, 'amount'), request.body.payer);
      return reply.code(201).send(sandboxTransactionView(tx));
    },
  );
