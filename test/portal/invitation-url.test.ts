import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startHarness, type Harness } from '../harness.ts';
import { TEST_PROVIDER_CERT_FILE, TEST_PROVIDER_KEY_FILE } from '../provider-env.ts';
import { portalClient, signedInOperator } from './portal-client.ts';

/**
 * Issue 21 item 2: invitation links (and every absolute URL the service writes) come from PUBLIC_URL,
 * as README's production settings give it, never from a guess on PUBLIC_HOST.
 */
describe('invitation URLs with PUBLIC_URL=https://pix.example.com', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { PUBLIC_URL: 'https://pix.example.com', PUBLIC_HOST: '127.0.0.1:3000' } });
  });
  afterAll(() => h.close());

  it('the admin API answers an https://pix.example.com link, and that link opens the invitation page', async () => {
    const account = await h.createAccount();
    const invited = await h.admin('POST', `/admin/accounts/${account.id}/members`, { email: 'new.member@example.com' });
    expect(invited.statusCode, invited.body).toBe(201);
    const url = new URL(invited.json().invitationUrl);
    expect(url.origin).toBe('https://pix.example.com');
    expect(url.pathname).toMatch(/^\/portal\/invitations\/[A-Za-z0-9_-]{20,}$/);
    const page = await portalClient(h).get(url.pathname);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Set password');
  });

  it("the operator panel's invitation shows the same kind of link", async () => {
    const account = await h.createAccount();
    const operator = await signedInOperator(h);
    const invited = await operator.post(`/portal/admin/accounts/${account.id}/members`, { email: 'clerk@example.com' });
    expect(invited.statusCode).toBe(201);
    expect(invited.body).toMatch(/id="invitation-url" class="mono" readonly="" value="https:\/\/pix\.example\.com\/portal\/invitations\/[A-Za-z0-9_-]+"/);
  });

  it('OAuth discovery and the OpenAPI servers use it too; a charge location keeps PUBLIC_HOST (the BR Code rule)', async () => {
    const meta = await h.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    expect(meta.json().issuer).toBe('https://pix.example.com');
    const doc = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.json().servers[0].url).toBe('https://pix.example.com');
    const account = await h.createAccount();
    const token = await h.tokenFor(account.id);
    const cob = await h.api('PUT', '/cob/invitationurltest0000000000001', token, { calendario: {}, valor: { original: '1.00' }, chave: account.pixKey });
    expect(cob.statusCode, cob.body).toBe(201);
    // The BR Code's field 26-25 (the location, no scheme): 25 + its length + the URL.
    expect(cob.json().location).toMatch(/2553127\.0\.0\.1:3000\/qr\/v2\/[0-9a-f]{32}/);
    expect(cob.json().location).not.toContain('pix.example.com');
  });
});

describe('PUBLIC_URL, read once for every absolute URL', () => {
  it('a path prefix is kept; without PUBLIC_URL the scheme is the one this process serves', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://example.com/pix/' }).publicUrl).toBe('https://example.com/pix');
    expect(loadConfig({ PORT: '4711' }).publicUrl).toBe('http://127.0.0.1:4711');
    expect(loadConfig({ PORT: '4711', TLS_CERT_FILE: TEST_PROVIDER_CERT_FILE, TLS_KEY_FILE: TEST_PROVIDER_KEY_FILE }).publicUrl).toBe('https://127.0.0.1:4711');
  });

  it('a prefixed PUBLIC_URL prefixes the invitation link', async () => {
    const h = await startHarness({ env: { PUBLIC_URL: 'https://example.com/pix' } });
    try {
      const account = await h.createAccount();
      const invited = await h.admin('POST', `/admin/accounts/${account.id}/members`, { email: 'prefixed@example.com' });
      expect(invited.json().invitationUrl).toMatch(/^https:\/\/example\.com\/pix\/portal\/invitations\/[A-Za-z0-9_-]+$/);
    } finally {
      await h.close();
    }
  });
});
