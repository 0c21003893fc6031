import { Type } from '@sinclair/typebox';
import { ALL_SCOPES } from '../../../services/auth/scopes.ts';
import type { RouteModule } from '../../app-types.ts';
import type { SystemContext } from '../../route-contexts.ts';

const Metadata = Type.Object({
  issuer: Type.String({ format: 'uri', description: 'PUBLIC_URL; also the `iss` of every access token' }),
  token_endpoint: Type.String({ format: 'uri', description: 'RFC 6749 client credentials (the compatible family)' }),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  grant_types_supported: Type.Array(Type.String()),
  response_types_supported: Type.Array(Type.String(), { description: 'empty: there is no authorization endpoint' }),
  scopes_supported: Type.Array(Type.String()),
  jwks_uri: Type.String({ format: 'uri' }),
  service_documentation: Type.String({ format: 'uri' }),
  tls_client_certificate_bound_access_tokens: Type.Boolean({ description: 'RFC 8705: tokens are bound to the client certificate' }),
  api_token_endpoint: Type.String({ format: 'uri', description: 'the full family\'s token endpoint: JSON {clientId, clientSecret}, answers 201' }),
  api_token_endpoint_auth_methods_supported: Type.Array(Type.String()),
});

/**
 * RFC 8414 authorization server metadata. Both token endpoints need the client certificate
 * (X-SSL-Client-Cert behind the TLS proxy) besides the client secret; the tokens they issue are
 * certificate-bound. The full family's JSON endpoint is not an RFC 6749 one, so it is named by an
 * extension (`api_token_endpoint`), which RFC 8414 section 2 allows.
 */
export const oauthMetadataRoute: RouteModule<SystemContext> = (app, c) =>
  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        tags: ['system'],
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        response: { 200: Metadata },
      },
    },
    async (_request, reply) => {
      const base = c.config.publicUrl;
      reply.header('cache-control', 'public, max-age=300');
      return {
        issuer: base,
        token_endpoint: `${base}/oauth/token`,
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        grant_types_supported: ['client_credentials'],
        response_types_supported: [],
        scopes_supported: [...ALL_SCOPES],
        jwks_uri: `${base}/.well-known/jwks.json`,
        service_documentation: `${base}/docs`,
        tls_client_certificate_bound_access_tokens: true,
        api_token_endpoint: `${base}/api/auth/token`,
        api_token_endpoint_auth_methods_supported: ['client_secret_post'],
      };
    },
  );
