import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { pageAsked, PageOf, PageQuery, pageView } from '../../schemas/pagination.ts';
import { AccountSummary, accountSummaryView } from './account-view.ts';

export const listAccountsRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts',
    {
      schema: {
        tags: ['admin'],
        summary: 'List or search accounts (newest first): q matches the name (a part, any case), the document, the id or a PIX key',
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 100, description: 'a part of the name, a CPF/CNPJ (punctuation ignored), an account id, or a PIX key' })),
          ...PageQuery,
        }),
        response: { 200: PageOf(AccountSummary) },
      },
    },
    async (request) => {
      const asked = pageAsked(request.query);
      const { rows, total } = await c.accounts.search(request.query.q, asked);
      return pageView(rows.map(accountSummaryView), total, asked);
    },
  );
