import { Type } from '@sinclair/typebox';
import { adminTokenActor, auditAccountChange } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { Document } from '../../schemas/common.ts';
import { AccountCreated, accountCreatedView } from './account-view.ts';
import { OneOf } from '../../../http/schemas/one-of.ts';
import { ACCOUNT_TYPES } from '../../../domain/closed-lists.ts';

export const createAccountRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/accounts',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create an account (with a random EVP key)',
        body: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 100 }),
          document: Document(),
          type: Type.Optional(OneOf(ACCOUNT_TYPES)),
        }),
        response: { 201: AccountCreated },
      },
    },
    async (request, reply) => {
      const account = await c.accounts.create(request.body, auditAccountChange(c.audit, adminTokenActor(request.ip), 'account.create'));
      return reply.code(201).send(accountCreatedView(account));
    },
  );
