import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { pageAsked, PageOf, PageQuery, pageView } from '../../schemas/pagination.ts';

const Member = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  status: Type.Union([Type.Literal('INVITED'), Type.Literal('ACTIVE')], { description: 'INVITED until the invitation link sets a password' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const listMembersRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id/members',
    {
      schema: {
        tags: ['admin'],
        summary: "The account's portal members (invited or active), oldest first",
        params: Type.Object({ id: NumericId }),
        querystring: Type.Object(PageQuery),
        response: { 200: PageOf(Member) },
      },
    },
    async (request) => {
      const asked = pageAsked(request.query);
      const { rows, total } = await c.portalPeople.memberPage(Number(request.params.id), asked);
      const data = rows.map((m) => ({ id: m.id, email: m.email, status: m.active ? ('ACTIVE' as const) : ('INVITED' as const), createdAt: m.createdAt.toISOString() }));
      return pageView(data, total, asked);
    },
  );
