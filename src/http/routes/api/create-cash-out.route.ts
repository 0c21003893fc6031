import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { toCents } from '../../money-edge.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { Document, ScenarioHeaders } from '../../schemas/common.ts';
import { OneOf } from '../../../http/schemas/one-of.ts';
import { PUBLIC_KEY_TYPES, TRANSACTION_STATUSES } from '../../../domain/closed-lists.ts';

const CashOutRequest = Type.Object({
  // No upper bound here: above 999,999,999.99 is the business code PIX_INVALID_AMOUNT (decisions 4.7).
  value: Type.Number({ format: 'money', minimum: 0.01, description: 'BRL, at most 2 decimals' }),
  externalId: Type.String({ minLength: 1, maxLength: 255, description: 'unique per account; acts as an idempotency key' }),
  description: Type.Optional(Type.String({ maxLength: 140 })),
  details: Type.Object({
    key: Type.String({ minLength: 1, maxLength: 77 }),
    keyType: OneOf(PUBLIC_KEY_TYPES),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    document: Document({ description: 'CPF (11 digits) or CNPJ (14) of the key holder' }),
  }, { 'x-pix-key': { key: 'key', type: 'keyType', family: 'public' } }),
});

export const CashOutResponse = Type.Object({
  transactionId: Type.String({ format: 'uuid' }),
  externalId: Type.String(),
  status: OneOf(TRANSACTION_STATUSES),
  generateTime: Type.String({ format: 'date-time' }),
});

export const createCashOutRoute: RouteModule<ApiContext> = (app, c) =>
  app.post(
    '/api/pix/cash-out',
    {
      onRequest: requireAccount(c, 'pix:write'),
      schema: {
        tags: ['payouts'],
        summary: 'Send a PIX payment to a key (the final status arrives by webhook or polling)',
        security: [{ bearer: [] }],
        headers: ScenarioHeaders,
        body: CashOutRequest,
        response: { 201: CashOutResponse },
      },
    },
    async (request, reply) => {
      const scenario = c.payouts.scenarios(request.headers['x-sandbox-scenario'], 'cash_out');
      const body = request.body;
      const tx = await c.payouts.cashOut.create({
        accountId: accountIdOf(request),
        amount: toCents(body.value, 'value'),
        externalId: body.externalId,
        description: body.description ?? null,
        details: body.details,
        scenario,
      });
      return reply.code(201).send({
        transactionId: tx.transaction_id,
        externalId: tx.external_id!,
        status: tx.status,
        generateTime: tx.created_at.toISOString(),
      });
    },
  );
