import { Type } from '@sinclair/typebox';
import { adminTokenActor, recordAs } from '../../../services/audit/audit-log.ts';
import type { RouteModule } from '../../app-types.ts';
import type { AdminContext } from '../../route-contexts.ts';
import { NumericId } from '../../schemas/common.ts';

export const rotateWebhookSecretRoute: RouteModule<AdminContext> = (app, c) =>
  app.post(
    '/admin/accounts/:id/webhook-secret/rotate',
    {
      schema: {
        tags: ['admin'],
        summary: "Rotate the account's webhook signing secret: until previousSecretValidUntil every delivery is signed by both secrets (two v1 signatures), then by the new one only",
        params: Type.Object({ id: NumericId }),
        response: {
          200: Type.Object({
            secret: Type.String({ description: 'the new whsec_ secret' }),
            previousSecretValidUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
              description: 'until when the previous secret still signs (WEBHOOK_SECRET_OVERLAP_S after now); null when the account had none',
            }),
          }),
        },
      },
    },
    async (request) => {
      const rotated = await c.webhooks.rotateSecret(Number(request.params.id), recordAs(c.audit, adminTokenActor(request.ip), 'webhook-secret.rotate'));
      return { secret: rotated.secret, previousSecretValidUntil: rotated.previousSecretValidUntil?.toISOString() ?? null };
    },
  );
