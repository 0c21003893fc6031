import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { BacenContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { Cob, cobView, TxidParams } from './cob-view.ts';

/**
 * PATCH /cob/{txid}: the only revision offered is the receiver's removal of an ATIVA charge
 * (`status: REMOVIDA_PELO_USUARIO_RECEBEDOR`); any other field answers 400.
 */
export const patchCobRoute: RouteModule<BacenContext> = (app, c) =>
  app.patch(
    '/cob/:txid',
    {
      onRequest: requireAccount(c, 'pix:write'),
      schema: {
        tags: ['cob'],
        summary: 'Cancel an immediate charge (status REMOVIDA_PELO_USUARIO_RECEBEDOR)',
        security: [{ bearer: [] }],
        params: TxidParams,
        body: Type.Object({ status: Type.Literal('REMOVIDA_PELO_USUARIO_RECEBEDOR') }, { additionalProperties: false }),
        response: { 200: Cob },
      },
    },
    // Only an ATIVA charge is cancelled, so it has received no PIX.
    async (request) => cobView({ charge: await c.charges.cancelCob(accountIdOf(request), request.params.txid), payments: [] }),
  );
