import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { https1, https2, makeServerCertificate, writeKeyPair } from '../deployment/tls-kit.ts';
import { providerEnv } from '../provider-env.ts';
import { cents } from '../../src/domain/money.ts';
import { ALL_SCOPES } from '../../src/services/auth/scopes.ts';

// Issue 25 item 4: one access line at info for every answer, refusals included.
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

type Line = Record<string, unknown>;

/** The access line of the request sent with `X-Request-Id: id` (exactly one). */
function accessLineOf(h: Harness, id: string): Line {
  const lines = h.logLines.map((l) => JSON.parse(l) as Line).filter((l) => l.reqId === id && l.msg === 'request');
  expect(lines, `access lines of ${id}`).toHaveLength(1);
  return lines[0]!;
}

describe('access lines over HTTPS (HTTP/1.1 and HTTP/2 on one port)', () => {
  let h: Harness;
  let port: number;
  let ca: string;
  let dir: string;

  beforeAll(async () => {
    const server = await makeServerCertificate();
    ca = server.certPem;
    const files = writeKeyPair(server);
    dir = files.dir;
    h = await startHarness({ env: { TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile } });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as { port: number }).port;
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, send, version] of [
    ['HTTP/1.1', https1, '1.1'],
    ['HTTP/2', https2, '2.0'],
  ] as const) {
    it(`${name}: a 200 and a 401, each at info with status, code, ip, proto https, the HTTP version and the trace id`, async () => {
      const ok = await send(port, ca, { method: 'GET', path: '/health', headers: { 'x-request-id': `ok-${version}`, traceparent: TRACEPARENT } });
      expect(ok.status).toBe(200);
      const refused = await send(port, ca, { method: 'GET', path: '/api/balance', headers: { 'x-request-id': `refused-${version}`, authorization: 'Bearer nope' } });
      expect(refused.status).toBe(401);
      const okLine = accessLineOf(h, `ok-${version}`);
      expect(okLine).toMatchObject({ level: 30, method: 'GET', route: '/health', status: 200, ip: '127.0.0.1', proto: 'https', httpVersion: version, traceId: TRACE_ID });
      expect(okLine).not.toHaveProperty('code');
      const refusedLine = accessLineOf(h, `refused-${version}`);
      // The code the client received (issue 30): the body's, and the precise reason beside it.
      expect(refused.body.code).toBe('HTTP_ERROR');
      expect(refusedLine).toMatchObject({ level: 30, status: 401, code: 'HTTP_ERROR', reason: 'UNAUTHORIZED', ip: '127.0.0.1', proto: 'https', httpVersion: version });
      expect(refusedLine).not.toHaveProperty('traceId');
    });
  }
});

describe('access lines: refusals at info, the client address, trace context validated', () => {
  let h: Harness;

  beforeAll(async () => {
    // Production trusts only the listed proxy; the injected requests come from 127.0.0.1.
    h = await startHarness({ env: { MODE: 'production', ADMIN_TOKEN, TRUSTED_PROXIES: '127.0.0.1', ...providerEnv() } });
  }, 60_000);

  afterAll(() => h?.close());

  const get = (url: string, id: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
    h.app.inject({ method: 'GET', url, remoteAddress, headers: { 'x-request-id': id, ...headers } });

  it('401, 403, 404 and 429 each get an info line with their code', async () => {
    expect((await get('/nowhere', 'r404')).statusCode).toBe(404);
    expect(accessLineOf(h, 'r404')).toMatchObject({ level: 30, status: 404, code: 'HTTP_ERROR', reason: 'NOT_FOUND', route: 'unmatched' });
    // The sandbox routes do not exist in production; the admin API refuses a wrong token (401), and
    // after 10 failures from one address, answers 429 without checking.
    for (let i = 0; i < 12; i++) await get('/admin/accounts/1', `admin-${i}`, { authorization: 'Bearer wrong-admin-token' }, '198.51.100.7');
    expect(accessLineOf(h, 'admin-0')).toMatchObject({ level: 30, status: 401, code: 'HTTP_ERROR', reason: 'UNAUTHORIZED', ip: '198.51.100.7' });
    expect(accessLineOf(h, 'admin-11')).toMatchObject({ level: 30, status: 429, code: 'HTTP_ERROR', reason: 'RATE_LIMITED', ip: '198.51.100.7' });
    // A token without the route's scope: 403.
    const account = await h.createAccount();
    const token = await h.tokenFor(account.id, ALL_SCOPES.filter((s) => s !== 'balance:read'));
    const forbidden = await h.api('GET', '/api/balance', token, undefined, { 'x-request-id': 'r403' });
    expect(forbidden.statusCode).toBe(403);
    expect(accessLineOf(h, 'r403')).toMatchObject({ level: 30, status: 403, code: forbidden.json().code, reason: 'FORBIDDEN' });
    // A business refusal's code is the body's own, with no reason beside it.
    // (A refund of a PIX the account did receive: the suspension is decided where the money would leave.)
    const received = await h.c.deposits.deposit(account.id, cents(500));
    expect((await h.admin('POST', `/admin/accounts/${account.id}/suspend`)).statusCode).toBe(200);
    const suspended = await h.api('POST', `/api/pix/refund-in/${received.id}`, await h.tokenFor(account.id), { refundValue: 1 }, { 'x-request-id': 'r403-business' });
    expect(suspended.json().code).toBe('ACCOUNT_SUSPENDED');
    expect(accessLineOf(h, 'r403-business')).toMatchObject({ level: 30, status: 403, code: 'ACCOUNT_SUSPENDED' });
    expect(accessLineOf(h, 'r403-business')).not.toHaveProperty('reason');
  });

  it('ip: the trusted proxy\'s X-Forwarded-For, and its X-Forwarded-Proto; an untrusted caller\'s are not believed', async () => {
    await get('/health', 'via-proxy', { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' });
    expect(accessLineOf(h, 'via-proxy')).toMatchObject({ ip: '203.0.113.9', proto: 'https', httpVersion: '1.1' });
    await get('/health', 'direct', { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' }, '192.0.2.50');
    expect(accessLineOf(h, 'direct')).toMatchObject({ ip: '192.0.2.50', proto: 'http' });
  });

  it('traceId only for a valid traceparent: a malformed one is ignored', async () => {
    const cases: Array<[string, string | undefined]> = [
      [TRACEPARENT, TRACE_ID],
      [`01-${TRACE_ID}-00f067aa0ba902b7-01-future-field`, TRACE_ID],
      [TRACEPARENT.toUpperCase(), undefined],
      [`00-${TRACE_ID}-00f067aa0ba902b7-01-extra`, undefined],
      [`ff-${TRACE_ID}-00f067aa0ba902b7-01`, undefined],
      [`00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, undefined],
      [`00-${TRACE_ID}-${'0'.repeat(16)}-01`, undefined],
      [`00-${TRACE_ID.slice(1)}-00f067aa0ba902b7-01`, undefined],
      ['garbage', undefined],
    ];
    for (const [i, [header, expected]] of cases.entries()) {
      await get('/health', `trace-${i}`, { traceparent: header });
      expect(accessLineOf(h, `trace-${i}`).traceId, header).toBe(expected);
    }
  });
});
