import { Type } from '@sinclair/typebox';
import type { SplitFrequency } from '../../../domain/closed-lists.ts';
import { adminTokenActor, auditAccountChange } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { OneOf } from '../../../http/schemas/one-of.ts';
import { SPLIT_FREQUENCIES } from '../../../domain/closed-lists.ts';

const Frequency = OneOf(SPLIT_FREQUENCIES, {
  description: 'when non-immediate split shares are paid: at once, at the next full hour, or daily at 00:00 America/Sao_Paulo',
});

export const updateSplitFrequencyRoute: RouteModule<AdminContext> = (app, c) =>
  app.patch(
    '/admin/accounts/:id/split-frequency',
    {
      schema: {
        tags: ['admin'],
        summary: "Set when the account's non-immediate split shares are paid",
        params: Type.Object({ id: NumericId }),
        body: Type.Object({ frequency: Frequency }),
        response: { 200: Type.Object({ frequency: Frequency }) },
      },
    },
    async (request) => {
      const account = await c.accounts.setSplitFrequency(Number(request.params.id), request.body.frequency, auditAccountChange(c.audit, adminTokenActor(request.ip), 'account.split-frequency'));
      return { frequency: account.split_frequency as SplitFrequency };
    },
  );
