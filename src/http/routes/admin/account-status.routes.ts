import { Type } from '@sinclair/typebox';
import type { AccountStatus } from '../../../domain/closed-lists.ts';
import { adminTokenActor } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { AccountDetails, accountDetailsView } from './account-view.ts';

/** `POST /admin/accounts/{id}/suspend` or `/reactivate`: sets the status, audited, and answers the account. */
function statusRoute(action: 'suspend' | 'reactivate', status: AccountStatus, summary: string): RouteModule<AdminContext> {
  return (app, c) =>
    app.post(
      `/admin/accounts/:id/${action}`,
      {
        schema: {
          tags: ['admin'],
          summary,
          params: Type.Object({ id: NumericId }),
          response: { 200: AccountDetails },
        },
      },
      async (request) => {
        const id = Number(request.params.id);
        const account = await c.accounts.setStatus(id, status, (trx, before) =>
          c.audit.record(trx, adminTokenActor(request.ip), { action: `account.${action}`, accountId: id, target: `account:${id}`, before: { status: before.status }, after: { status } }),
        );
        return accountDetailsView(account);
      },
    );
}

const suspend = statusRoute(
  'suspend',
  'SUSPENDED',
  "Suspend the account: its money-moving calls (cash-out, QR code cash-out, /dict/pix, refunds; API and portal) answer 403 ACCOUNT_SUSPENDED; reads, charges and incoming PIX continue, and payouts already admitted settle. Suspending a suspended account changes nothing",
);
const reactivate = statusRoute('reactivate', 'ACTIVE', 'Reactivate a suspended account: its money-moving calls work again. Reactivating an active account changes nothing');

// Named modules: the OpenAPI operationId is the module's name (route-docs.ts).
export const suspendAccountRoute: RouteModule<AdminContext> = (app, c) => suspend(app, c);
export const reactivateAccountRoute: RouteModule<AdminContext> = (app, c) => reactivate(app, c);
