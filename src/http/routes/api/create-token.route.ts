import { Type, type Static } from '@sinclair/typebox';
import type { FastifySchemaValidationError } from 'fastify';
import { DomainError } from '../../../domain/errors/domain-error.ts';
import type { RouteModule } from '../../app-types.ts';
import type { ApiContext } from '../../route-contexts.ts';
import { presentedCertificate } from '../../client-certificate.ts';
import { violations } from '../../validation.ts';

const TokenRequest = Type.Object({
  clientId: Type.String({ format: 'uuid-v4', description: 'OAuth 2.0 client id (UUID v4)' }),
  clientSecret: Type.String({ minLength: 8, maxLength: 64 }),
});

const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'JWT (ES256), bound to the client certificate' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Number({ description: 'seconds; always 1800' }),
});

export const createTokenRoute: RouteModule<ApiContext> = (app, c) =>
  app.post(
    '/api/auth/token',
    {
      // The body is judged after the certificate header (decisions 4.15), so the handler reads the
      // validation result instead of Fastify answering first.
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary: 'Exchange a client certificate and client credentials for an access token',
        headers: Type.Object({
          'x-ssl-client-cert': Type.Optional(Type.String({ description: 'percent-encoded (RFC 3986) PEM client certificate' })),
        }),
        body: TokenRequest,
        response: { 201: TokenResponse },
      },
    },
    async (request, reply) => {
      const certificate = c.tokenGrants.certificateFrom(presentedCertificate(request, c.config));
      if (request.validationError) {
        const found = violations(
          ((request.validationError as { validation?: FastifySchemaValidationError[] }).validation ?? []) as never,
          'body',
        );
        throw new DomainError(
          'PUB_REQUEST_BODY_INVALID',
          { violations: found, hint: 'Send JSON {"clientId": "<UUID v4>", "clientSecret": "<8-64 characters>"}.' },
          `The request body is invalid: ${found.map((v) => `${v.field} ${v.message}`).join('; ')}`,
        );
      }
      const body = request.body as Static<typeof TokenRequest>;
      const grant = await c.tokenGrants.grant(certificate, body, { address: request.ip });
      return reply.code(201).send({ access_token: grant.accessToken, token_type: 'Bearer', expires_in: grant.expiresIn });
    },
  );
