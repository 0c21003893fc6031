import { Type } from '@sinclair/typebox';
import { adminTokenActor, auditAccountChange } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { AccountDetails, accountDetailsView } from './account-view.ts';

export const updateAccountRoute: RouteModule<AdminContext> = (app, c) =>
  app.patch(
    '/admin/accounts/:id',
    {
      schema: {
        tags: ['admin'],
        summary: "Change the account's name (the document, type and keys never change); an empty body changes nothing",
        params: Type.Object({ id: NumericId }),
        body: Type.Object(
          { name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'the name shown to payers and in the portal' })) },
          { additionalProperties: false },
        ),
        response: { 200: AccountDetails },
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const name = request.body.name?.trim();
      const account = name === undefined ? await c.accounts.get(id) : await c.accounts.rename(id, name, auditAccountChange(c.audit, adminTokenActor(request.ip), 'account.update'));
      return accountDetailsView(account);
    },
  );
