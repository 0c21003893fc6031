import { Type } from '@sinclair/typebox';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';

export const rotateSigningKeyRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/signing-keys/rotate',
    {
      schema: {
        tags: ['admin'],
        summary: 'Rotate the access-token signing key: a new key signs from now (on other instances within 30 s); the old one stays in /.well-known/jwks.json until the tokens it signed have expired',
        response: {
          200: Type.Object({
            kid: Type.String({ description: 'the key that signs now' }),
            previousKid: Type.Union([Type.String(), Type.Null()]),
            previousKeyValidUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
              description: 'until when the previous key verifies and is published: a token lifetime plus 30 s from now',
            }),
          }),
        },
      },
    },
    async (request) => {
      const rotated = await c.signingKeys.rotate(recordAs(c.audit, adminTokenActor(request.ip), 'signing-key.rotate'));
      return { kid: rotated.kid, previousKid: rotated.previousKid, previousKeyValidUntil: rotated.previousKeyValidUntil?.toISOString() ?? null };
    },
  );
