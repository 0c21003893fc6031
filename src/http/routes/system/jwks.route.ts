import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SystemContext } from '../../route-contexts.ts';

const Jwk = Type.Object({
  kty: Type.String(),
  crv: Type.String(),
  x: Type.String(),
  y: Type.String(),
  kid: Type.String(),
  alg: Type.String(),
  use: Type.String(),
});

/** The public keys that verify access tokens: the signing key and retired keys whose tokens may live. */
export const jwksRoute: RouteModule<SystemContext> = (app, c) =>
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['system'],
        summary: 'Public keys (JWKS) that verify access tokens',
        response: { 200: Type.Object({ keys: Type.Array(Jwk) }) },
      },
    },
    async (_request, reply) => {
      // Short caching: a verifier that meets an unknown kid after a rotation sees the new key within a minute.
      reply.header('cache-control', 'public, max-age=60');
      return { keys: (await c.signingKeys.publicKeys()) as Array<typeof Jwk.static> };
    },
  );
