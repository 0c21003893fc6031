import type { RouteModule } from '../../app-types.ts';
import type { BacenContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { ShortError } from '../../schemas/common.ts';
import { Devolucao, DevolucaoParams, devolucaoView } from './devolucao-view.ts';

/** GET /pix/{e2eid}/devolucao/{id}: a refund of a received PIX, by the client's id. */
export const getDevolucaoRoute: RouteModule<BacenContext> = (app, c) =>
  app.get(
    '/pix/:e2eid/devolucao/:id',
    {
      onRequest: requireAccount(c, 'pix:read'),
      schema: {
        tags: ['devolucao'],
        summary: 'Look up a refund of a received PIX',
        security: [{ bearer: [] }],
        params: DevolucaoParams,
        response: { 200: Devolucao, 404: ShortError },
      },
    },
    async (request) => {
      const { tx, refund } = await c.refunds.findDevolucao(accountIdOf(request), request.params.e2eid, request.params.id);
      return devolucaoView(tx, refund);
    },
  );
