import { Type } from '@sinclair/typebox';
import { cents, toBrlNumber } from '../../../domain/money.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { accountIdOf, requireAccount } from '../../plugins/account-auth.ts';
import { Brl } from '../../schemas/common.ts';

const Balance = Type.Object({
  grossBalance: Brl({ description: 'available + blocked, BRL' }),
  blockedBalance: Brl({ description: 'reserved for operations in processing, BRL' }),
  netBalance: Brl({ description: 'usable now, BRL (already net of blocked)' }),
  consultedAt: Type.String({ format: 'date-time' }),
});

/** Decisions 4.17: the standard-shape balance, read from the account row the ledger keeps. */
export const getBalanceRoute: RouteModule<ApiContext> = (app, c) =>
  app.get(
    '/api/balance',
    {
      onRequest: requireAccount(c, 'balance:read'),
      schema: { tags: ['balance'], summary: 'Account balance', security: [{ bearer: [] }], response: { 200: Balance } },
    },
    async (request) => {
      const account = await c.accounts.get(accountIdOf(request));
      const available = account.available;
      const blocked = account.blocked;
      return {
        grossBalance: toBrlNumber(cents(available + blocked)),
        blockedBalance: toBrlNumber(blocked),
        netBalance: toBrlNumber(available),
        consultedAt: c.accountClock.now().toISOString(),
      };
    },
  );
