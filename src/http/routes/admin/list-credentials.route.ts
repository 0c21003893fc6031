import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { pageAsked, PageOf, PageQuery, pageView } from '../../schemas/pagination.ts';

const Credential = Type.Object({
  clientId: Type.String({ format: 'uuid-v4' }),
  scopes: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('REVOKED')]),
  createdAt: Type.String({ format: 'date-time' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const listCredentialsRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id/credentials',
    {
      schema: {
        tags: ['admin'],
        summary: "The account's OAuth client credentials, newest first (never a secret: only its hash is kept)",
        params: Type.Object({ id: NumericId }),
        querystring: Type.Object(PageQuery),
        response: { 200: PageOf(Credential) },
      },
    },
    async (request) => {
      const asked = pageAsked(request.query);
      const { rows, total } = await c.credentials.page(Number(request.params.id), asked);
      const data = rows.map((r) => ({
        clientId: r.client_id,
        scopes: r.scopes.split(' ').filter(Boolean),
        status: r.revoked_at ? ('REVOKED' as const) : ('ACTIVE' as const),
        createdAt: r.created_at.toISOString(),
        revokedAt: r.revoked_at?.toISOString() ?? null,
      }));
      return pageView(data, total, asked);
    },
  );
