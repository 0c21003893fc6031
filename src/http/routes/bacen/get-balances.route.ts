import { Type } from '@sinclair/typebox';
import { toBrlNumber } from '../../../domain/money.ts';
import type { RouteModule } from '../../app-types.ts';
import type { BacenContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { Brl } from '../../schemas/common.ts';

const Balances = Type.Object({
  data: Type.Array(
    Type.Object({
      eventDate: Type.String({ format: 'date-time' }),
      balanceAmount: Type.Object({
        available: Brl({ description: 'usable now, already net of blocked' }),
        blocked: Brl({ description: 'reserved for operations in processing' }),
        overdraft: Brl({ description: 'always 0 (not offered)' }),
      }),
    }),
  ),
});

/** The central-bank-compatible balance: exactly one item, amounts as JSON numbers (decisions 3). */
export const getBalancesRoute: RouteModule<BacenContext> = (app, c) =>
  app.get(
    '/accounts/balances',
    {
      onRequest: requireAccount(c, 'balance:read'),
      schema: { tags: ['compatible'], summary: 'Account balance (compatible shape)', security: [{ bearer: [] }], response: { 200: Balances } },
    },
    async (request) => {
      const account = await c.accounts.get(accountIdOf(request));
      return {
        data: [
          {
            eventDate: c.accountClock.now().toISOString(),
            balanceAmount: {
              available: toBrlNumber(account.available),
              blocked: toBrlNumber(account.blocked),
              overdraft: 0,
            },
          },
        ],
      };
    },
  );
