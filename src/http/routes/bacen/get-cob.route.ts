import type { RouteModule } from '../../app-types.ts';
import type { BacenContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { Cob, cobView, TxidParams } from './cob-view.ts';

/** GET /cob/{txid}: the account's charge; another account's txid answers 404. */
export const getCobRoute: RouteModule<BacenContext> = (app, c) =>
  app.get(
    '/cob/:txid',
    {
      onRequest: requireAccount(c, 'pix:read'),
      schema: { tags: ['cob'], summary: 'Read an immediate charge', security: [{ bearer: [] }], params: TxidParams, response: { 200: Cob } },
    },
    async (request) => cobView(await c.charges.readCob(accountIdOf(request), request.params.txid)),
  );
