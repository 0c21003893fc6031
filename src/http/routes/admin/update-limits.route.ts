import { Type } from '@sinclair/typebox';
import { adminTokenActor, auditAccountChange } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { toCents } from '../../money-edge.ts';
import { AmountOrZero, NumericId } from '../../schemas/common.ts';
import { Limits, limitsView } from './account-view.ts';

export const updateLimitsRoute: RouteModule<AdminContext> = (app, c) =>
  app.patch(
    '/admin/accounts/:id/limits',
    {
      schema: {
        tags: ['admin'],
        summary: 'Set cash-out limits (BRL): per transaction, per calendar day, per night',
        params: Type.Object({ id: NumericId }),
        body: Type.Object({
          perTransaction: Type.Optional(AmountOrZero()),
          daily: Type.Optional(AmountOrZero()),
          nightly: Type.Optional(AmountOrZero()),
        }),
        response: { 200: Limits },
      },
    },
    async (request) => {
      const b = request.body;
      const account = await c.accounts.setLimits(Number(request.params.id), {
        ...(b.perTransaction !== undefined ? { perTransaction: toCents(b.perTransaction, 'perTransaction') } : {}),
        ...(b.daily !== undefined ? { daily: toCents(b.daily, 'daily') } : {}),
        ...(b.nightly !== undefined ? { nightly: toCents(b.nightly, 'nightly') } : {}),
      }, auditAccountChange(c.audit, adminTokenActor(request.ip), 'account.limits'));
      return limitsView(account);
    },
  );
