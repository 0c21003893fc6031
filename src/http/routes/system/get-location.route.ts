import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SystemContext } from '../../route-contexts.ts';

/**
 * GET /qr/v2/{locationId} (no auth): the charge payload behind a dynamic BR Code, as a compact
 * JWS (`application/jose`) signed with the service's key published at /.well-known/jwks.json.
 */
export const getLocationRoute: RouteModule<SystemContext> = (app, c) =>
  app.get(
    '/qr/v2/:locationId',
    {
      schema: {
        tags: ['system'],
        summary: 'Charge payload (JWS) behind a dynamic BR Code',
        params: Type.Object({ locationId: Type.String({ maxLength: 64 }) }),
        response: {
          200: {
            description: 'A compact JWS whose payload is the charge (BACEN PIX, dynamic BR Code)',
            content: { 'application/jose': { schema: Type.String({ examples: ['eyJhbGciOiJFUzI1NiIsImtpZCI6IjEifQ.eyJ0eGlkIjoiLi4uIn0.c2ln'] }) } },
          },
        },
      },
    },
    async (request, reply) => {
      const jws = await c.chargeLocations.signedPayload(request.params.locationId);
      return reply.type('application/jose').header('cache-control', 'no-store').send(jws);
    },
  );
