import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { client } from '../auth/auth-helpers.ts';
import { startHarness, type Harness } from '../harness.ts';

describe('OAuth discovery (RFC 8414) and the issuer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { PUBLIC_URL: 'https://pix.example.com/' } });
  });
  afterAll(() => h.close());

  it('describes both token endpoints, the auth methods and certificate-bound tokens, under PUBLIC_URL', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      issuer: 'https://pix.example.com',
      token_endpoint: 'https://pix.example.com/oauth/token',
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      grant_types_supported: ['client_credentials'],
      response_types_supported: [],
      scopes_supported: ['pix:read', 'pix:write', 'balance:read', 'webhook:read', 'webhook:write'],
      jwks_uri: 'https://pix.example.com/.well-known/jwks.json',
      service_documentation: 'https://pix.example.com/docs',
      tls_client_certificate_bound_access_tokens: true,
      api_token_endpoint: 'https://pix.example.com/api/auth/token',
      api_token_endpoint_auth_methods_supported: ['client_secret_post'],
    });
  });

  it('signs tokens of both endpoints with iss = the public URL, verifiable with the published keys', async () => {
    const c = await client(h);
    const cert = encodeURIComponent(c.pem);
    const api = await h.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'x-ssl-client-cert': cert },
      payload: { clientId: c.clientId, clientSecret: c.clientSecret },
    });
    const form = await h.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'x-ssl-client-cert': cert, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret }).toString(),
    });
    expect([api.statusCode, form.statusCode]).toEqual([201, 200]);
    const jwks = createLocalJWKSet((await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json());
    for (const token of [api.json().access_token, form.json().access_token] as string[]) {
      expect(decodeJwt(token).iss).toBe('https://pix.example.com');
      const { payload } = await jwtVerify(token, jwks, { issuer: 'https://pix.example.com', currentDate: h.clock.now() });
      expect(payload.cnf).toHaveProperty('x5t#S256');
    }
  });

  it('documents the /oauth/token request bodies (RFC 6749 form and JSON) and its client authentication', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/oauth/token'].post;
    const form = op.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(form.required).toEqual(['grant_type']);
    expect(Object.keys(form.properties)).toEqual(['grant_type', 'client_id', 'client_secret', 'scope']);
    expect(op.requestBody.content['application/json'].schema.required).toEqual(['clientId', 'clientSecret']);
    expect(op.security).toEqual([{ clientBasic: [] }, {}]);
    expect(doc.paths['/.well-known/oauth-authorization-server'].get.operationId).toBe('oauthMetadata');
  });
});

describe('PUBLIC_URL', () => {
  it('defaults to http:// and PUBLIC_HOST, and is refused when it is not an http(s) URL without query', () => {
    expect(loadConfig({ PORT: '4710' }).publicUrl).toBe('http://127.0.0.1:4710');
    expect(loadConfig({ PUBLIC_HOST: 'pix.local:8443' }).publicUrl).toBe('http://pix.local:8443');
    expect(loadConfig({ PUBLIC_URL: 'https://api.example.com/pix/' }).publicUrl).toBe('https://api.example.com/pix');
    for (const bad of ['pix.example.com', 'ftp://pix.example.com', 'https://pix.example.com/?a=1', 'https://u:p@pix.example.com']) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(ConfigError);
    }
  });
});
