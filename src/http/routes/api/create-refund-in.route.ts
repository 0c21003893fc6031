import { Type } from '@sinclair/typebox';
import { toBrlNumber } from '../../../domain/money.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { toCents } from '../../money-edge.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { Amount, Brl, ScenarioHeaders } from '../../schemas/common.ts';
import { OneOf } from '../../../http/schemas/one-of.ts';
import { TRANSACTION_STATUSES } from '../../../domain/closed-lists.ts';

const Body = Type.Object({
  refundValue: Amount({ description: 'BRL; not above what is still refundable of the original' }),
  reason: Type.Optional(Type.String({ maxLength: 255 })),
  externalId: Type.Optional(
    Type.String({
      format: 'refund-external-id',
      description:
        "Unique per account; 1 to 35 printable characters, without spaces at either end (as the provider's API takes it). " +
        'When it is only letters and digits it is also the refund\'s devolução id on the compatible family (`GET /pix/{e2eid}/devolucao/{externalId}`); ' +
        'otherwise the refund is reachable there by the service\'s own id, its `transactionId` without hyphens.',
    }),
  ),
});

/** The spec's Refund-in transaction. */
const RefundIn = Type.Object({
  transactionId: Type.String({ format: 'uuid' }),
  externalId: Type.String(),
  status: OneOf(TRANSACTION_STATUSES),
  refundValue: Brl(),
  providerTransactionId: Type.String({ description: 'correlates the webhooks (the refund end-to-end id, D...)' }),
  generateTime: Type.String({ format: 'date-time' }),
});

/** POST /api/pix/refund-in/{id}: refunds a received PIX, in whole or in part. */
export const createRefundInRoute: RouteModule<ApiContext> = (app, c) =>
  app.post(
    '/api/pix/refund-in/:id',
    {
      onRequest: requireAccount(c, 'pix:write'),
      schema: {
        tags: ['pix'],
        summary: 'Refund a received PIX (refund-in)',
        security: [{ bearer: [] }],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'transactionId or numeric id of the received PIX' }) }),
        headers: ScenarioHeaders,
        body: Body,
        response: { 201: RefundIn },
      },
    },
    async (request, reply) => {
      const { tx, refund } = await c.refunds.create({
        accountId: accountIdOf(request),
        original: { by: 'id', id: request.params.id },
        amount: toCents(request.body.refundValue, 'refundValue'),
        description: request.body.reason ?? null,
        refundId: request.body.externalId,
        family: 'api',
        natureza: 'ORIGINAL',
        scenario: c.scenarios(request.headers['x-sandbox-scenario'], 'refund_in'),
      });
      return reply.code(201).send({
        transactionId: tx.transaction_id,
        externalId: tx.external_id ?? refund.refund_id,
        status: tx.status,
        refundValue: toBrlNumber(tx.original_amount),
        providerTransactionId: refund.rtr_id,
        generateTime: tx.created_at.toISOString(),
      });
    },
  );
