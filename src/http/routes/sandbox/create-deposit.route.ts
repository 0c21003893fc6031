import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SandboxContext } from '../../route-contexts.ts';
import { toCents } from '../../money-edge.ts';
import { sandboxAccountId } from '../../plugins/sandbox-actor.ts';
import { Amount, Document, ParticipantIspb } from '../../schemas/common.ts';
import { sandboxTransactionView, SandboxTransaction } from './sandbox-transaction-view.ts';

/** `value`, as every amount of the API is named; `amount`, its first name, stays accepted (exactly one of them). */
const Body = Type.Object(
  {
    accountId: Type.Optional(Type.Integer({ minimum: 1, description: 'with the admin token' })),
    value: Type.Optional(Amount({ description: 'BRL the payer sends, at most 2 decimals; exactly one of value and amount' })),
    amount: Type.Optional(Amount({ description: 'alias of value (its former name), still accepted; exactly one of value and amount' })),
    payer: Type.Optional(
      Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100 }),
        document: Document(),
        ispb: ParticipantIspb(),
      }),
    ),
  },
  { 'x-one-of-fields': ['value', 'amount'] },
);

export const createDepositRoute: RouteModule<SandboxContext> = (app, c) =>
  app.post(
    '/sandbox/deposits',
    {
      schema: {
        tags: ['sandbox'],
        summary: "An incoming PIX to the account's key with no charge (a confirmed 'Pix in')",
        body: Body,
        response: { 201: SandboxTransaction },
      },
    },
    async (request, reply) => {
      const accountId = await sandboxAccountId(request, c, request.body.accountId);
      const { value, amount } = request.body;
      // The schema lets exactly one of them through (x-one-of-fields).
      const cents = value !== undefined ? toCents(value, 'value') : toCents(amount!, 'amount');
      const tx = await c.sandboxNetwork!.sendPix(accountId, cents, request.body.payer);
      return reply.code(201).send(sandboxTransactionView(tx));
    },
  );
