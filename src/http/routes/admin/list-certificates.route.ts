import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';
import { pageAsked, PageOf, PageQuery, pageView } from '../../schemas/pagination.ts';

const Certificate = Type.Object({
  fingerprint: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the DER, lower-case hex' }),
  subject: Type.String(),
  notBefore: Type.String({ format: 'date-time' }),
  notAfter: Type.String({ format: 'date-time' }),
  revoked: Type.Boolean(),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time', description: 'when it was registered' }),
});

export const listCertificatesRoute: RouteModule<AdminContext> = (app, c) =>
  app.get(
    '/admin/accounts/:id/certificates',
    {
      schema: {
        tags: ['admin'],
        summary: "The account's client certificates, newest first, revoked ones included (never a private key: the service keeps none)",
        params: Type.Object({ id: NumericId }),
        querystring: Type.Object(PageQuery),
        response: { 200: PageOf(Certificate) },
      },
    },
    async (request) => {
      const asked = pageAsked(request.query);
      const { rows, total } = await c.certificates.page(Number(request.params.id), asked);
      const data = rows.map((r) => ({
        fingerprint: r.fingerprint,
        subject: r.subject,
        notBefore: r.not_before.toISOString(),
        notAfter: r.not_after.toISOString(),
        revoked: r.revoked_at !== null,
        revokedAt: r.revoked_at?.toISOString() ?? null,
        createdAt: r.created_at.toISOString(),
      }));
      return pageView(data, total, asked);
    },
  );
