import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { RouteModule } from '../../app-types.ts';
import type { OAuthContext } from '../../route-contexts.ts';
import { presentedCertificate } from '../../client-certificate.ts';
import { OAuthError, sendOAuthError } from './oauth-error.ts';

const FORM = 'application/x-www-form-urlencoded';

const DocumentedBody = {
  content: {
    [FORM]: {
      schema: Type.Object(
        {
          grant_type: Type.Literal('client_credentials'),
          client_id: Type.Optional(Type.String({ format: 'uuid', description: 'with client_secret, when the client does not authenticate with HTTP Basic' })),
          client_secret: Type.Optional(Type.String()),
          scope: Type.Optional(Type.String({ description: 'space-separated; default: every scope of the credential', examples: ['pix:read pix:write'] })),
        },
        { examples: [{ grant_type: 'client_credentials', scope: 'pix:read pix:write' }] },
      ),
    },
    'application/json': {
      schema: Type.Object(
        { clientId: Type.String({ format: 'uuid' }), clientSecret: Type.String() },
        { examples: [{ clientId: '3f1c2b7e-8d4a-4c6f-9b2e-1a5d7c9e0f24', clientSecret: 'cs_live_5Jk9Qw2Zr7Tx' }] },
      ),
    },
  },
};

interface TokenInput {
  clientId: string;
  clientSecret: string;
  scopes?: string[];
}

const field = (body: Record<string, unknown>, name: string): string | undefined => {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new OAuthError(400, 'invalid_request', `${name} must be a single string`);
  return value;
};

/** RFC 6749 section 2.3.1: `Basic base64(urlencode(client_id) ":" urlencode(client_secret))`. */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  if (!header || !/^Basic /i.test(header)) return undefined;
  const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (!match) throw new OAuthError(401, 'invalid_client', 'The Basic authorization header is malformed');
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError(401, 'invalid_client', 'The Basic authorization header is malformed');
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError(401, 'invalid_client', 'The Basic credentials are not valid form-urlencoded text');
  }
}

/** Both request styles: the provider's JSON `{clientId, clientSecret}` and the RFC 6749 form. */
function readTokenInput(request: FastifyRequest): TokenInput {
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw new OAuthError(400, 'invalid_request', 'The body must be an object');
  const isForm = (request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM);
  if (!isForm) {
    const clientId = field(body, 'clientId');
    const clientSecret = field(body, 'clientSecret');
    const missing = [clientId === undefined && 'clientId', clientSecret === undefined && 'clientSecret'].filter(Boolean);
    if (missing.length > 0) throw new OAuthError(400, 'invalid_request', `${missing.join(' and ')} required`);
    return { clientId: clientId!, clientSecret: clientSecret! };
  }
  const grantType = field(body, 'grant_type');
  if (grantType === undefined) throw new OAuthError(400, 'invalid_request', 'grant_type is required');
  if (grantType !== 'client_credentials') {
    throw new OAuthError(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported');
  }
  const basic = basicCredentials(request.headers.authorization);
  const inBody = { clientId: field(body, 'client_id'), clientSecret: field(body, 'client_secret') };
  if (basic && (inBody.clientId !== undefined || inBody.clientSecret !== undefined)) {
    throw new OAuthError(400, 'invalid_request', 'Authenticate the client in one way only: HTTP Basic or client_id/client_secret');
  }
  const client = basic ?? inBody;
  if (client.clientId === undefined || client.clientSecret === undefined) {
    throw new OAuthError(401, 'invalid_client', 'Client authentication is required: HTTP Basic, or client_id and client_secret');
  }
  const scope = field(body, 'scope');
  return {
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    ...(scope !== undefined ? { scopes: scope.split(' ').filter(Boolean) } : {}),
  };
}

/**
 * Decisions 4.14: the compatible family's token endpoint. The same checks as `/api/auth/token` (one
 * service), answered in RFC 6749's shapes: 200 with `scope`, and `{error, error_description}`.
 */
export const oauthTokenRoute: RouteModule<OAuthContext> = (app, c) => {
  // Form bodies only here, in the OAuth family's scope; nothing else in the service accepts them.
  app.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => {
    const params = new URLSearchParams(body as string);
    const parsed: Record<string, string | string[]> = {};
    for (const key of new Set(params.keys())) {
      const all = params.getAll(key);
      parsed[key] = all.length === 1 ? all[0]! : all; // a repeated parameter is refused as invalid_request
    }
    done(null, parsed);
  });

  app.post(
    '/oauth/token',
    {
      // The body is read by hand (both styles, RFC 6749 errors): its schemas are for the document only.
      config: { swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: DocumentedBody } as typeof schema, url }) },
      schema: {
        tags: ['compatible'],
        summary: 'OAuth 2.0 client credentials token (JSON {clientId, clientSecret} or RFC 6749 form)',
        headers: Type.Object({
          'x-ssl-client-cert': Type.Optional(Type.String({ description: 'percent-encoded (RFC 3986) PEM client certificate' })),
        }),
        response: {
          200: Type.Object({
            access_token: Type.String(),
            token_type: Type.Literal('Bearer'),
            expires_in: Type.Number(),
            scope: Type.String(),
          }),
        },
      },
    },
    async (request, reply) => {
      try {
        const certificate = c.tokenGrants.certificateFrom(presentedCertificate(request, c.config));
        const input = readTokenInput(request);
        const grant = await c.tokenGrants.grant(certificate, input, { address: request.ip }, input.scopes);
        reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
        return { access_token: grant.accessToken, token_type: 'Bearer' as const, expires_in: grant.expiresIn, scope: grant.scopes.join(' ') };
      } catch (error) {
        if (sendOAuthError(reply, error)) return reply;
        throw error;
      }
    },
  );
};
