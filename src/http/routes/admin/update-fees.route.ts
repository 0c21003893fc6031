import { Type } from '@sinclair/typebox';
import { adminTokenActor, auditAccountChange } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { toBasisPoints, toCents } from '../../money-edge.ts';
import { AmountOrZero, NumericId, Percent } from '../../schemas/common.ts';
import { Fees, feesView } from './account-view.ts';

const FeeInput = Type.Object({ fixed: AmountOrZero(), percent: Percent });

export const updateFeesRoute: RouteModule<AdminContext> = (app, c) =>
  app.patch(
    '/admin/accounts/:id/fees',
    {
      schema: {
        tags: ['admin'],
        summary: 'Set fees: fixed BRL plus a percent of the amount, rounded half-up to the cent',
        params: Type.Object({ id: NumericId }),
        body: Type.Object({ cashIn: Type.Optional(FeeInput), cashOut: Type.Optional(FeeInput) }),
        response: { 200: Fees },
      },
    },
    async (request) => {
      const { cashIn, cashOut } = request.body;
      const account = await c.accounts.setFees(Number(request.params.id), {
        ...(cashIn ? { cashIn: { fixed: toCents(cashIn.fixed, 'cashIn.fixed'), percentBp: toBasisPoints(cashIn.percent, 'cashIn.percent') } } : {}),
        ...(cashOut ? { cashOut: { fixed: toCents(cashOut.fixed, 'cashOut.fixed'), percentBp: toBasisPoints(cashOut.percent, 'cashOut.percent') } } : {}),
      }, auditAccountChange(c.audit, adminTokenActor(request.ip), 'account.fees'));
      return feesView(account);
    },
  );
