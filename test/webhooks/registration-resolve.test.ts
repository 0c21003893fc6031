import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../src/webhooks/host-resolver.ts';
import { startHarness, type Harness } from '../harness.ts';
import { providerEnv } from '../provider-env.ts';

// Issue 10 item 10: production registration resolves the host and refuses what delivery would refuse.

const answers: Record<string, Array<{ address: string; family: number }>> = {
  'hooks.example.com': [{ address: '93.184.215.14', family: 4 }],
  'internal.example.com': [{ address: '10.0.0.5', family: 4 }],
  'loop.example.com': [{ address: '127.0.0.1', family: 4 }],
  'v6loop.example.com': [{ address: '::1', family: 6 }],
  'metadata.example.com': [{ address: '169.254.169.254', family: 4 }],
  'mapped.example.com': [{ address: '::ffff:192.168.1.10', family: 6 }],
  // One public and one private answer: the connection could go to either.
  'mixed.example.com': [{ address: '93.184.215.14', family: 4 }, { address: '127.0.0.1', family: 4 }],
};
const asked: string[] = [];
const resolver: HostResolver = async (hostname) => {
  asked.push(hostname);
  if (hostname === 'broken-dns.example.com') throw Object.assign(new Error('queryA ESERVFAIL broken-dns.example.com'), { code: 'ESERVFAIL' });
  const found = answers[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};

describe('production webhook registration resolves the host', () => {
  let h: Harness;
  let accountId: number;
  let token: string;
  beforeAll(async () => {
    // The test's token requests send X-SSL-Client-Cert as a front proxy on loopback would (issue 15).
    h = await startHarness({ env: { MODE: 'production', ...providerEnv(), WEBHOOK_ROUTES_ENABLED: 'true', TRUSTED_PROXIES: '127.0.0.1' }, resolver });
    accountId = (await h.createAccount()).id;
    token = await h.tokenFor(accountId);
  });
  afterAll(() => h.close());

  const register = (url: string) => h.admin('POST', `/admin/accounts/${accountId}/webhooks`, { eventType: 'cash_in', url });

  it.each([
    ['https://internal.example.com/hook', /internal\.example\.com resolves to one \(10\.0\.0\.5 is a private address\)/],
    ['https://loop.example.com/hook', /127\.0\.0\.1 is a loopback address/],
    ['https://v6loop.example.com/hook', /::1 is an IPv6 loopback address/],
    ['https://metadata.example.com/latest', /169\.254\.169\.254 is a cloud metadata address/],
    ['https://mapped.example.com/hook', /192\.168\.1\.10 is a private address/],
    ['https://mixed.example.com/hook', /127\.0\.0\.1 is a loopback address/],
  ])('refuses %s with the delivery guard reason', async (url, reason) => {
    const res = await register(url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: [expect.stringMatching(reason)] });
    expect(res.json().message[0]).toMatch(/^url must not point to a private address/);
  });

  it('refuses localhost with a trailing dot (and any .localhost name) without asking the resolver', async () => {
    asked.length = 0;
    for (const url of ['https://localhost./hook', 'https://LOCALHOST./hook', 'https://api.localhost./hook', 'https://localhost.:8443/hook']) {
      const res = await register(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toEqual(['url must not point to localhost']);
    }
    expect(asked).toEqual([]);
  });

  it('refuses a name that does not resolve; a resolver failure is a 503 with Retry-After, not the caller\'s fault', async () => {
    const missing = await register('https://nowhere.example.com/hook');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toEqual(['url host nowhere.example.com does not resolve to any address']);
    const broken = await register('https://broken-dns.example.com/hook');
    expect(broken.statusCode).toBe(503);
    expect(broken.headers['retry-after']).toBe('5');
  });

  it('one answer names every invalid field: the event, the URL and the headers together (issue 17 item 3)', async () => {
    asked.length = 0;
    const body = { eventType: 'payment', url: 'https://localhost./hook', headers: [{ key: 'Host', value: 'x' }, { key: 'bad key', value: 'v' }] };
    const expected = [
      'eventType must be one of: cash_in, cash_out, refund_in, refund_out, med_created, med_accepted, med_rejected',
      'url must not point to localhost',
      'headers[0].key Host is a blocked header name (host, content-length, connection, transfer-encoding, content-type, user-agent)',
      "headers[1].key must be a valid HTTP header name (letters, digits and !#$%&'*+.^_`|~-, at most 100)",
    ];
    const admin = await h.admin('POST', `/admin/accounts/${accountId}/webhooks`, body);
    expect(admin.statusCode, admin.body).toBe(400);
    expect(admin.json().message).toEqual(expected);
    const api = await h.api('POST', '/api/webhooks', token, body);
    expect(api.statusCode, api.body).toBe(400);
    expect(api.json()).toMatchObject({ code: 'HTTP_ERROR', path: '/api/webhooks', message: expected });
    // A private literal address with a bad event: both too.
    const literal = await h.admin('POST', `/admin/accounts/${accountId}/webhooks`, { eventType: 'x', url: 'https://10.1.2.3/hook' });
    expect(literal.json().message).toEqual([expected[0], expect.stringMatching(/^url must not point to a private address: 10\.1\.2\.3 is a private address/)]);
    expect(asked).toEqual([]);
    expect((await h.admin('GET', `/admin/accounts/${accountId}/webhooks`)).json().metadata.total).toBe(0);
  });

  it('registers a name that resolves only to public addresses, on the admin and the public route', async () => {
    const res = await register('https://hooks.example.com/in');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ url: 'https://hooks.example.com/in' });
    const viaApi = await h.api('POST', '/api/webhooks', token, { eventType: 'cash_out', url: 'https://hooks.example.com/out' });
    expect(viaApi.json()).toMatchObject({ success: true });
    const refused = await h.api('POST', '/api/webhooks', token, { eventType: 'cash_out', url: 'https://internal.example.com/out' });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json())).toMatch(/10\.0\.0\.5 is a private address/);
    const listed = (await h.admin('GET', `/admin/accounts/${accountId}/webhooks`)).json().data as Array<{ url: string }>;
    expect(listed.map((w) => w.url).sort()).toEqual(['https://hooks.example.com/in', 'https://hooks.example.com/out']);
  });
});

describe('sandbox registration', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ resolver });
  });
  afterAll(() => h.close());

  it('one answer names every invalid field (issue 17 item 3): the sandbox URL rule beside the schema', async () => {
    const { id } = await h.createAccount();
    const res = await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'nope', url: 'ftp://hooks.example.com/x', headers: [{ key: 'Webhook-Id', value: 'line\nbreak' }] });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toEqual([
      'eventType must be one of: cash_in, cash_out, refund_in, refund_out, med_created, med_accepted, med_rejected',
      'url must use HTTPS (the sandbox also accepts http://localhost and http://127.0.0.1)',
      'headers[0].key Webhook-Id is reserved for the webhook signature (webhook-id, webhook-timestamp, webhook-signature)',
      'headers[0].value must be at most 1000 printable ASCII characters (no line breaks)',
    ]);
    const credentials = await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: 'https://user:pw@hooks.example.com/x' });
    expect(credentials.json().message).toEqual(['url must not contain credentials']);
    expect((await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: 'http://127.0.0.1:9/x' })).statusCode).toBe(201);
  });

  it('does not resolve names (local receivers are the point of a sandbox)', async () => {
    asked.length = 0;
    const { id } = await h.createAccount();
    const res = await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: 'https://internal.example.com/hook' });
    expect(res.statusCode).toBe(201);
    expect(asked).toEqual([]);
  });
});
