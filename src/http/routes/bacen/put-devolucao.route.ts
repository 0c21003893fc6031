import { Type } from '@sinclair/typebox';
import { ValidationError } from '../../../domain/errors/domain-error.ts';
import { centsFromDecimalString } from '../../../domain/money.ts';
import type { RouteModule } from '../../app-types.ts';
import type { BacenContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { DecimalAmount, ScenarioHeaders, ShortError } from '../../schemas/common.ts';
import { Devolucao, DevolucaoParams, devolucaoView } from './devolucao-view.ts';

const Body = Type.Object({
  valor: DecimalAmount({ description: 'two decimals; the sum of all refunds not above the PIX' }),
  // MED_OPERACIONAL and MED_FRAUDE only appear in answers (MED refunds); a client cannot ask for them.
  natureza: Type.Optional(Type.Union([Type.Literal('ORIGINAL'), Type.Literal('RETIRADA')])),
  descricao: Type.Optional(Type.String({ maxLength: 140 })),
});

/** PUT /pix/{e2eid}/devolucao/{id}: the compatible family's refund of a received PIX. */
export const putDevolucaoRoute: RouteModule<BacenContext> = (app, c) =>
  app.put(
    '/pix/:e2eid/devolucao/:id',
    {
      onRequest: requireAccount(c, 'pix:write'),
      schema: {
        tags: ['devolucao'],
        summary: 'Ask for a refund of a received PIX',
        security: [{ bearer: [] }],
        params: DevolucaoParams,
        headers: ScenarioHeaders,
        body: Body,
        response: { 201: Devolucao, 400: ShortError, 404: ShortError, 409: ShortError, 422: ShortError },
      },
    },
    async (request, reply) => {
      const amount = centsFromDecimalString(request.body.valor);
      if (amount === undefined || amount <= 0) throw new ValidationError(['valor must be at least 0.01, written with two decimals']);
      const { tx, refund } = await c.refunds.create({
        accountId: accountIdOf(request),
        original: { by: 'endToEndId', endToEndId: request.params.e2eid },
        amount,
        description: request.body.descricao ?? null,
        refundId: request.params.id,
        family: 'bacen',
        natureza: request.body.natureza ?? 'ORIGINAL',
        scenario: c.scenarios(request.headers['x-sandbox-scenario'], 'refund_in'),
      });
      return reply.code(201).send(devolucaoView(tx, refund));
    },
  );
