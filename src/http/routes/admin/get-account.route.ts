import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { AccountDetails, accountDetailsView } from './account-view.ts';

export const getAccountRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'An account with its balance, limits and fees',
        params: Type.Object({ id: NumericId }),
        response: { 200: AccountDetails },
      },
    },
    async (request) => accountDetailsView(await c.accounts.get(Number(request.params.id))),
  );
