import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { BacenContext } from '../../route-contexts.ts';
import { toCents } from '../../money-edge.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { Brl, Document, SandboxScenarioHeader } from '../../schemas/common.ts';

export const DictTransfer = Type.Object({
  endToEndId: Type.String({ description: 'provisionally the idempotency key; the real one arrives with settlement' }),
  eventDate: Type.String({ format: 'date-time' }),
  id: Type.Number(),
  payment: Type.Object({ amount: Brl(), currency: Type.String() }),
  type: Type.Union([Type.Literal('PENDING'), Type.Literal('COMPLETED'), Type.Literal('ERROR')]),
  errorCode: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  errorMessage: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

const DictTransferRequest = Type.Object({
  pixKey: Type.String({ format: 'dict-key', maxLength: 77 }),
  creditorDocument: Type.Optional(Document()),
  priority: Type.Optional(Type.Union([Type.Literal('HIGH'), Type.Literal('NORM')])),
  description: Type.Optional(Type.String({ maxLength: 140 })),
  expiration: Type.Optional(Type.Integer({ minimum: 1, maximum: 10800, description: 'seconds in queue; default 600' })),
  payment: Type.Object({
    currency: Type.Literal('BRL'),
    amount: Type.Number({ format: 'money', minimum: 0.01, description: 'BRL, at most 2 decimals' }),
  }),
  ispbDeny: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9]{8}$' }), { maxItems: 100 })),
  paymentFlow: Type.Optional(Type.String({ maxLength: 50 })),
});

export const createDictTransferRoute: RouteModule<BacenContext> = (app, c) =>
  app.post(
    '/dict/pix',
    {
      onRequest: requireAccount(c, 'pix:write'),
      schema: {
        tags: ['compatible'],
        summary: 'Start a PIX transfer to a key (idempotent by x-idempotency-key)',
        security: [{ bearer: [] }],
        headers: Type.Object({
          'x-idempotency-key': Type.String({ format: 'uuid-v4' }),
          'x-sandbox-scenario': SandboxScenarioHeader,
        }),
        body: DictTransferRequest,
        response: { 201: DictTransfer },
      },
    },
    async (request, reply) => {
      const scenario = c.payouts.scenarios(request.headers['x-sandbox-scenario'], 'cash_out');
      const body = request.body;
      const answer = await c.payouts.dictTransfers.create(
        accountIdOf(request),
        request.headers['x-idempotency-key'],
        { ...body, payment: { currency: body.payment.currency, amount: toCents(body.payment.amount, 'payment.amount') } },
        scenario,
        body,
      );
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(answer.status as 201).send(answer.body as never);
    },
  );
