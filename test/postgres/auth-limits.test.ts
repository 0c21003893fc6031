import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { failureKeys } from '../../src/services/auth/failure-limits.ts';
import { client } from '../auth/auth-helpers.ts';
import { signedInMember } from '../portal/portal-client.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { pgUrl } from './pg-tools.ts';
import { startStatementCounter } from './statement-counter.ts';

/**
 * Failure limits on real PostgreSQL (decisions 7, issue 20 item 1), what PGlite's single connection
 * cannot show: what a right secret costs in statements, and a burst spread over two instances (two
 * pools) still admitting exactly the limit of failures. The rules themselves run on PostgreSQL in
 * auth-hardening.test.ts (test/auth/brute-force.test.ts).
 */
let h: Harness;
let counter: Awaited<ReturnType<typeof startStatementCounter>>;
beforeAll(async () => {
  const target = new URL(pgUrl());
  counter = await startStatementCounter({ host: target.hostname, port: Number(target.port || 5432) });
  const via = new URL(pgUrl());
  via.hostname = '127.0.0.1';
  via.port = String(counter.port);
  h = await startHarness({ postgres: { url: via.toString() } });
});
afterAll(async () => {
  await h?.close();
  await counter?.close();
});

const AUTH_FAILURES = /auth_failures/;
const WRITES = /^\s*(\/\*.*?\*\/\s*)?(INSERT|UPDATE|DELETE)\b|record_auth_failure/i;

describe('what a right credential costs (PostgreSQL)', () => {
  it('a successful token request runs one statement, which reads its failure keys; nothing is written', async () => {
    const x = await client(h);
    const token = () =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        remoteAddress: '198.51.100.1',
        headers: { 'x-ssl-client-cert': encodeURIComponent(x.pem) },
        payload: { clientId: x.clientId, clientSecret: x.clientSecret },
      });
    expect((await token()).statusCode).toBe(201); // the signing key is remembered from here on
    const before = { statements: counter.statements, identity: counter.executed(/prepared:token_identity/), writes: counter.executed(WRITES) };
    for (let i = 0; i < 10; i++) expect((await token()).statusCode).toBe(201);
    expect(counter.statements - before.statements).toBe(10);
    expect(counter.executed(/prepared:token_identity/) - before.identity).toBe(10);
    expect(counter.executed(WRITES) - before.writes).toBe(0);
  });

  it('a right admin call runs one read of its address key before the route, and writes nothing', async () => {
    const { id } = await h.createAccount();
    const call = () => h.app.inject({ method: 'GET', url: `/admin/accounts/${id}`, remoteAddress: '192.0.2.9', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect((await call()).statusCode).toBe(200);
    const reads = counter.executed(/prepared:auth_failures_read/);
    const failures = counter.executed(AUTH_FAILURES);
    const writes = counter.executed(WRITES);
    for (let i = 0; i < 5; i++) expect((await call()).statusCode).toBe(200);
    expect(counter.executed(/prepared:auth_failures_read/) - reads).toBe(5);
    expect(counter.executed(AUTH_FAILURES) - failures).toBe(5);
    expect(counter.executed(WRITES) - writes).toBe(0);
  });

  it("a portal sign-in reads the person and the e-mail's failures in one statement", async () => {
    const account = await h.createAccount();
    const member = await signedInMember(h, account.id, 'cost@example.com');
    await member.post('/portal/sign-out');
    await member.get('/portal/sign-in');
    const failures = counter.executed(AUTH_FAILURES);
    const people = counter.executed(/FROM \(SELECT 1\) AS one LEFT JOIN portal_users/);
    expect((await member.post('/portal/sign-in', { email: 'cost@example.com', password: 'a long enough password' })).statusCode).toBe(303);
    expect(counter.executed(AUTH_FAILURES) - failures).toBe(1);
    expect(counter.executed(/FROM \(SELECT 1\) AS one LEFT JOIN portal_users/) - people).toBe(1);
  });
});

describe('two instances (PostgreSQL)', () => {
  it('25 wrong secrets at once, spread over two instances: exactly 10 admitted (401), 15 refused (429), at most 10 checked on each', async () => {
    const other = await h.instance();
    const app2 = await buildApp(other);
    await app2.ready();
    try {
      const x = await client(h);
      const verifyOne = vi.spyOn(h.c.secrets, 'verifySecret');
      const verifyTwo = vi.spyOn(other.secrets, 'verifySecret');
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          (i % 2 === 0 ? h.app : app2).inject({
            method: 'POST',
            url: '/api/auth/token',
            remoteAddress: '198.51.100.2',
            headers: { 'x-ssl-client-cert': encodeURIComponent(x.pem) },
            payload: { clientId: x.clientId, clientSecret: 'wrong-secret-value' },
          }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(10);
      expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(15);
      expect(verifyOne.mock.calls.length).toBeLessThanOrEqual(10);
      expect(verifyTwo.mock.calls.length).toBeLessThanOrEqual(10);
      const row = await h.c.db.selectFrom('auth_failures').select('failed_at').where('key', '=', failureKeys.client(x.clientId).key).executeTakeFirstOrThrow();
      expect(row.failed_at).toHaveLength(10);
      // Both instances refuse the right secret now: the key is over its limit.
      for (const app of [h.app, app2]) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/auth/token',
          remoteAddress: '198.51.100.3',
          headers: { 'x-ssl-client-cert': encodeURIComponent(x.pem) },
          payload: { clientId: x.clientId, clientSecret: x.clientSecret },
        });
        expect(res.statusCode).toBe(429);
      }
    } finally {
      vi.restoreAllMocks();
      await app2.close();
    }
  });
});
