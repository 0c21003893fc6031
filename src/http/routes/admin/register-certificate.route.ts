import { Type } from '@sinclair/typebox';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';

const Certificate = Type.Object({
  fingerprint: Type.String({ description: 'SHA-256 of the DER, hex' }),
  subject: Type.String(),
  notBefore: Type.String({ format: 'date-time' }),
  notAfter: Type.String({ format: 'date-time' }),
  certificatePem: Type.Optional(Type.String()),
  privateKeyPem: Type.Optional(Type.String()),
});

export const registerCertificateRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/accounts/:id/certificates',
    {
      schema: {
        tags: ['admin'],
        summary: 'Link a client certificate: register a PEM, or send {} to have a key and certificate made',
        params: Type.Object({ id: NumericId }),
        body: Type.Optional(Type.Object({ pem: Type.Optional(Type.String({ minLength: 1, maxLength: 20_000 })) })),
        response: { 201: Certificate },
      },
    },
    async (request, reply) => {
      const accountId = Number(request.params.id);
      const pem = request.body?.pem;
      const view = (info: { fingerprint: string; subject: string; notBefore: Date; notAfter: Date }) => ({
        fingerprint: info.fingerprint,
        subject: info.subject,
        notBefore: info.notBefore.toISOString(),
        notAfter: info.notAfter.toISOString(),
      });
      if (pem !== undefined) return reply.code(201).send(view(await c.certificates.register(accountId, pem, recordAs(c.audit, adminTokenActor(request.ip), 'certificate.register'))));
      const made = await c.certificates.make(accountId, recordAs(c.audit, adminTokenActor(request.ip), 'certificate.make'));
      return reply.code(201).send({ ...view(made), certificatePem: made.certificatePem, privateKeyPem: made.privateKeyPem });
    },
  );
