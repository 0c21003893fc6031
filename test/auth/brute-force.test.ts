import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContainer } from '../../src/container.ts';
import { addressKey } from '../../src/services/auth/failure-limits.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { client } from './auth-helpers.ts';

// Issue 10 item 6: wrong secrets are counted per client id and per address; past the limit, 429.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Client = Awaited<ReturnType<typeof client>>;

function apiToken(c: Client, secret: string, address: string, clientId = c.clientId) {
  return h.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    remoteAddress: address,
    headers: { 'x-ssl-client-cert': encodeURIComponent(c.pem) },
    payload: { clientId, clientSecret: secret },
  });
}

function oauthToken(c: Client, secret: string, address: string) {
  return h.app.inject({
    method: 'POST',
    url: '/oauth/token',
    remoteAddress: address,
    headers: { 'x-ssl-client-cert': encodeURIComponent(c.pem), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: secret }).toString(),
  });
}

function expectRetryAfter(res: { headers: Record<string, unknown> }) {
  const seconds = Number(res.headers['retry-after']);
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(900);
}

describe('token routes', () => {
  it('10 wrong secrets for one client: the 11th attempt answers 429 with Retry-After, even with the right secret, from any address', async () => {
    const x = await client(h);
    for (let i = 0; i < 10; i++) {
      const res = await apiToken(x, 'wrong-secret-value', '198.51.100.1');
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const refused = await apiToken(x, 'wrong-secret-value', '198.51.100.1');
    expect(refused.statusCode).toBe(429);
    expectRetryAfter(refused);
    expect(refused.json()).toMatchObject({ statusCode: 429, message: expect.stringMatching(/Too many failed authentication attempts/) });
    expect((await apiToken(x, x.clientSecret, '198.51.100.1')).statusCode).toBe(429);
    expect((await apiToken(x, x.clientSecret, '198.51.100.2')).statusCode).toBe(429);
    // The same address is not locked for another client (10 failures are under its address budget).
    const y = await client(h);
    expect((await apiToken(y, y.clientSecret, '198.51.100.1')).statusCode).toBe(201);
  });

  it('both token routes share the counters; the compatible family answers 429 slow_down with Retry-After', async () => {
    const x = await client(h);
    for (let i = 0; i < 5; i++) expect((await oauthToken(x, 'wrong-secret-value', '198.51.100.10')).statusCode).toBe(401);
    for (let i = 0; i < 5; i++) expect((await apiToken(x, 'wrong-secret-value', '198.51.100.10')).statusCode).toBe(401);
    const refused = await oauthToken(x, x.clientSecret, '198.51.100.10');
    expect(refused.statusCode).toBe(429);
    expectRetryAfter(refused);
    expect(refused.json()).toMatchObject({ error: 'slow_down', error_description: expect.any(String) });
    expect((await apiToken(x, x.clientSecret, '198.51.100.11')).statusCode).toBe(429);
  });

  it('30 wrong secrets from one address (any client ids): that address gets 429, another address still gets its token', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await apiToken(await anyClient(), 'wrong-secret-value', '203.0.113.5', randomUUID());
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const z = await client(h);
    const refused = await apiToken(z, z.clientSecret, '203.0.113.5');
    expect(refused.statusCode).toBe(429);
    expectRetryAfter(refused);
    expect((await apiToken(z, z.clientSecret, '203.0.113.6')).statusCode).toBe(201);
  });

  it('right secrets are not failures: 15 tokens in a row, then 9 wrong ones, and the right one still works', async () => {
    const x = await client(h);
    for (let i = 0; i < 15; i++) expect((await apiToken(x, x.clientSecret, '198.51.100.20')).statusCode).toBe(201);
    for (let i = 0; i < 9; i++) expect((await apiToken(x, 'wrong-secret-value', '198.51.100.20')).statusCode).toBe(401);
    expect((await apiToken(x, x.clientSecret, '198.51.100.20')).statusCode).toBe(201);
  });

  it('a concurrent burst of 25 wrong secrets gets exactly 10 checked, the rest 429', async () => {
    const x = await client(h);
    const answers = await Promise.all(Array.from({ length: 25 }, () => apiToken(x, 'wrong-secret-value', '198.51.100.30')));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((s) => s === 401)).toHaveLength(10);
    expect(codes.filter((s) => s === 429)).toHaveLength(15);
  });
});

let shared: Client | undefined;
async function anyClient() {
  shared ??= await client(h);
  return shared;
}

describe('admin guard', () => {
  const admin = (token: string, address: string) =>
    h.app.inject({ method: 'GET', url: '/admin/accounts/1', remoteAddress: address, headers: { authorization: `Bearer ${token}` } });

  it('10 wrong admin tokens from one address: 429 with Retry-After there (right token included), the right token from elsewhere works', async () => {
    const { id } = await h.createAccount();
    for (let i = 0; i < 10; i++) expect((await admin('not-the-admin-token', '192.0.2.50')).statusCode, `attempt ${i + 1}`).toBe(401);
    const refused = await admin('not-the-admin-token', '192.0.2.50');
    expect(refused.statusCode).toBe(429);
    expectRetryAfter(refused);
    expect(refused.json()).toEqual({ statusCode: 429, error: 'Too Many Requests', message: expect.stringMatching(/Too many failed/) });
    expect((await admin(ADMIN_TOKEN, '192.0.2.50')).statusCode).toBe(429);
    const elsewhere = await h.app.inject({
      method: 'GET',
      url: `/admin/accounts/${id}`,
      remoteAddress: '192.0.2.51',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.json()).toMatchObject({ id });
  });

  it('right admin tokens are not failures', async () => {
    const { id } = await h.createAccount();
    const asAdmin = () =>
      h.app.inject({ method: 'GET', url: `/admin/accounts/${id}`, remoteAddress: '192.0.2.60', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    for (let i = 0; i < 12; i++) expect((await asAdmin()).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) expect((await admin('not-the-admin-token', '192.0.2.60')).statusCode).toBe(401);
    expect((await asAdmin()).statusCode).toBe(200);
  });
});

describe('several instances', () => {
  it('two instances on one database share the counters: 5 failures on each lock the client on both', async () => {
    // A second service instance on the same database, as a second replica behind a load balancer.
    const c2 = await createContainer(h.c.config, { clock: h.clock, database: h.c.database, logger: h.c.logger });
    const app2 = await buildApp(c2);
    await app2.ready();
    try {
      const x = await client(h);
      const on2 = (secret: string) =>
        app2.inject({
          method: 'POST',
          url: '/api/auth/token',
          remoteAddress: '198.51.100.50',
          headers: { 'x-ssl-client-cert': encodeURIComponent(x.pem) },
          payload: { clientId: x.clientId, clientSecret: secret },
        });
      for (let i = 0; i < 5; i++) expect((await apiToken(x, 'wrong-secret-value', '198.51.100.50')).statusCode).toBe(401);
      for (let i = 0; i < 5; i++) expect((await on2('wrong-secret-value')).statusCode).toBe(401);
      expect((await on2(x.clientSecret)).statusCode).toBe(429);
      expect((await apiToken(x, x.clientSecret, '198.51.100.50')).statusCode).toBe(429);
    } finally {
      await app2.close();
    }
  });
});

describe('windows end', () => {
  it('once the 15-minute window is over, the locked client gets its token again', async () => {
    const x = await client(h);
    for (let i = 0; i < 11; i++) await apiToken(x, 'wrong-secret-value', '198.51.100.40');
    const refused = await apiToken(x, x.clientSecret, '198.51.100.40');
    expect(refused.statusCode).toBe(429);
    await h.advance(Number(refused.headers['retry-after']));
    expect((await apiToken(x, x.clientSecret, '198.51.100.40')).statusCode).toBe(201);
  });
});

describe('addressKey', () => {
  it('counts IPv4 by address, IPv6 by its /64, IPv4-mapped IPv6 as IPv4', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });
});
