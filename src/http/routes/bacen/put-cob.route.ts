import { ValidationError } from '../../../domain/errors/domain-error.ts';
import { centsFromDecimalString } from '../../../domain/money.ts';
import { DEFAULT_EXPIRATION_S } from '../../../services/charges/charge-model.ts';
import type { RouteModule } from '../../app-types.ts';
import type { BacenContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { ScenarioHeaders, ShortError } from '../../schemas/common.ts';
import { Cob, CobBody, cobView, TxidParams } from './cob-view.ts';

/** PUT /cob/{txid}: an immediate charge (a cash-in of the compatible family), ATIVA, revision 0. */
export const putCobRoute: RouteModule<BacenContext> = (app, c) =>
  app.put(
    '/cob/:txid',
    {
      onRequest: requireAccount(c, 'pix:write'),
      schema: {
        tags: ['cob'],
        summary: 'Create an immediate charge',
        security: [{ bearer: [] }],
        params: TxidParams,
        headers: ScenarioHeaders,
        body: CobBody,
        response: { 201: Cob, 409: ShortError },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const amount = centsFromDecimalString(body.valor.original);
      if (amount === undefined || amount <= 0) throw new ValidationError(['valor.original must be at least 0.01, written with two decimals']);
      const charge = await c.charges.createCob(
        accountIdOf(request),
        request.params.txid,
        {
          expiracao: body.calendario.expiracao ?? DEFAULT_EXPIRATION_S,
          ...(body.devedor ? { devedor: body.devedor } : {}),
          amount,
          modalidadeAlteracao: body.valor.modalidadeAlteracao ?? 0,
          chave: body.chave,
          ...(body.solicitacaoPagador !== undefined ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
          ...(body.infoAdicionais ? { infoAdicionais: body.infoAdicionais } : {}),
        },
        request.headers['x-sandbox-scenario'],
      );
      return reply.code(201).send(cobView({ charge: charge.charge, payments: [] }));
    },
  );
