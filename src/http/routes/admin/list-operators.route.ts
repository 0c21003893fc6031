import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { pageAsked, PageOf, PageQuery, pageView } from '../../schemas/pagination.ts';

const Operator = Type.Object({ id: Type.Integer(), email: Type.String(), createdAt: Type.String({ format: 'date-time' }) });

export const listOperatorsRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/operators',
    {
      schema: {
        tags: ['admin'],
        summary: 'The portal operators (back office), oldest first',
        querystring: Type.Object(PageQuery),
        response: { 200: PageOf(Operator) },
      },
    },
    async (request) => {
      const asked = pageAsked(request.query);
      const { rows, total } = await c.portalPeople.operatorPage(asked);
      return pageView(rows.map((o) => ({ id: Number(o.id), email: o.email, createdAt: o.created_at.toISOString() })), total, asked);
    },
  );
