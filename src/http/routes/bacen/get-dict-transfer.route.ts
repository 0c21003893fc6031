import { Type } from '@sinclair/typebox';
import { transferView } from '../../../services/payouts/dict-transfer.service.ts';
import type { RouteModule } from '../../app-types.ts';
import type { BacenContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { NumericId } from '../../schemas/common.ts';
import { DictTransfer } from './create-dict-transfer.route.ts';

export const getDictTransferRoute: RouteModule<BacenContext> = (app, c) =>
  app.get(
    '/dict/pix/:id',
    {
      onRequest: requireAccount(c, 'pix:read'),
      schema: {
        tags: ['compatible'],
        summary: 'A transfer started with POST /dict/pix',
        security: [{ bearer: [] }],
        params: Type.Object({ id: NumericId }),
        response: { 200: DictTransfer },
      },
    },
    async (request) => transferView(await c.payouts.dictTransfers.get(accountIdOf(request), Number(request.params.id))),
  );
