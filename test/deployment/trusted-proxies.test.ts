import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { providerEnv, TEST_PROVIDER_CERT_FILE, TEST_PROVIDER_KEY_FILE } from '../provider-env.ts';

/** An account with a certificate and credentials, made through the admin API. */
async function clientOf(h: Harness) {
  const account = await h.admin('POST', '/admin/accounts', { name: 'Proxy Teste', document: '52998224725' });
  const id = account.json().id;
  const cert = (await h.admin('POST', `/admin/accounts/${id}/certificates`, {})).json();
  const creds = (await h.admin('POST', `/admin/accounts/${id}/credentials`, {})).json();
  return { header: encodeURIComponent(cert.certificatePem), body: { clientId: creds.clientId, clientSecret: creds.clientSecret } };
}

const tokenFrom = (h: Harness, remoteAddress: string, client: Awaited<ReturnType<typeof clientOf>>, extra: Record<string, string> = {}) =>
  h.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    remoteAddress,
    headers: { 'x-ssl-client-cert': client.header, ...extra },
    payload: client.body,
  });

describe('TRUSTED_PROXIES in production mode', () => {
  let h: Harness;
  let client: Awaited<ReturnType<typeof clientOf>>;
  beforeAll(async () => {
    h = await startHarness({ env: { MODE: 'production', ...providerEnv(), TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.7,2001:db8::/32' } });
    client = await clientOf(h);
  });
  afterAll(() => h.close());

  it('believes X-SSL-Client-Cert from a listed address or CIDR (IPv4, IPv6, IPv4-mapped)', async () => {
    for (const proxy of ['10.1.2.3', '192.0.2.7', '2001:db8::5', '::ffff:10.9.9.9']) {
      const res = await tokenFrom(h, proxy, client);
      expect(res.statusCode, proxy).toBe(201);
    }
  });

  it('refuses a token request whose certificate header came from anyone else (400 PUB_CERT_HEADER_MISSING, hint names TRUSTED_PROXIES)', async () => {
    for (const caller of ['192.0.2.8', '127.0.0.1', '11.0.0.1', '2001:db9::1']) {
      const res = await tokenFrom(h, caller, client);
      expect(res.statusCode, caller).toBe(400);
      expect(res.json().code).toBe('PUB_CERT_HEADER_MISSING');
      expect(res.body).toContain('TRUSTED_PROXIES');
    }
    const oauth = await h.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: '192.0.2.8',
      headers: { 'x-ssl-client-cert': client.header },
      payload: client.body,
    });
    expect(oauth.statusCode).toBe(400);
    expect(oauth.json().error).toBe('invalid_request');
  });

  it('believes X-Forwarded-For and X-Forwarded-Proto only from a trusted proxy (the access log names the client address and scheme)', async () => {
    h.logLines.length = 0;
    const forwarded = { 'x-forwarded-for': '198.51.100.20', 'x-forwarded-proto': 'https' };
    await h.app.inject({ method: 'GET', url: '/health', remoteAddress: '10.0.0.1', headers: forwarded });
    await h.app.inject({ method: 'GET', url: '/health', remoteAddress: '203.0.113.9', headers: forwarded });
    const access = h.logLines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
    expect(access.map((line) => [line.ip, line.proto])).toEqual([
      ['198.51.100.20', 'https'],
      ['203.0.113.9', 'http'],
    ]);
  });
});

describe('TRUSTED_PROXIES defaults', () => {
  it('production trusts none when unset', async () => {
    const h = await startHarness({ env: { MODE: 'production', ...providerEnv() } });
    try {
      const client = await clientOf(h);
      const res = await tokenFrom(h, '127.0.0.1', client);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('PUB_CERT_HEADER_MISSING');
    } finally {
      await h.close();
    }
  });

  it('a plain-HTTP sandbox trusts any caller (the local sandbox sends the header directly)', async () => {
    const h = await startHarness();
    try {
      const client = await clientOf(h);
      expect((await tokenFrom(h, '203.0.113.50', client)).statusCode).toBe(201);
    } finally {
      await h.close();
    }
  });

  it('configuration: the documented defaults, and a bad entry is refused naming the variable', () => {
    expect(loadConfig({}).trustedProxies).toBe('any');
    expect(loadConfig({ MODE: 'production', ADMIN_TOKEN, ALLOW_EMBEDDED_DATABASE: 'true', ...providerEnv() }).trustedProxies).toEqual([]);
    expect(loadConfig({ TLS_CERT_FILE: TEST_PROVIDER_CERT_FILE, TLS_KEY_FILE: TEST_PROVIDER_KEY_FILE }).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '127.0.0.1' }).trustedProxies).toEqual(['127.0.0.1']);
    for (const bad of ['10.0.0.0/33', 'proxy.local', '10.0.0.1/8/2', '::1/129', '10.0.0.0/x']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES/);
    }
  });

  it('configuration: TLS needs both files, and TLS_CLIENT_AUTH is "optional" or "none"', () => {
    // The files must exist and hold a certificate and its key (test/config/start-refusals.test.ts): any pair does.
    expect(loadConfig({ TLS_CERT_FILE: TEST_PROVIDER_CERT_FILE, TLS_KEY_FILE: TEST_PROVIDER_KEY_FILE, TLS_CLIENT_AUTH: 'optional' }).tls).toEqual({
      certFile: TEST_PROVIDER_CERT_FILE,
      keyFile: TEST_PROVIDER_KEY_FILE,
      clientAuth: 'optional',
    });
    expect(loadConfig({}).tls).toBeUndefined();
    expect(() => loadConfig({ TLS_CERT_FILE: 'c.pem' })).toThrow(/TLS_KEY_FILE/);
    expect(() => loadConfig({ TLS_KEY_FILE: 'k.pem' })).toThrow(/TLS_CERT_FILE/);
    expect(() => loadConfig({ TLS_CERT_FILE: TEST_PROVIDER_CERT_FILE, TLS_KEY_FILE: TEST_PROVIDER_KEY_FILE, TLS_CLIENT_AUTH: 'required' })).toThrow(/TLS_CLIENT_AUTH/);
    expect(() => loadConfig({ TLS_CLIENT_AUTH: 'optional' })).toThrow(/TLS_CLIENT_AUTH/);
  });
});
