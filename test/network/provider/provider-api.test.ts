import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createCircuitBreaker } from '../../../src/network/provider/circuit-breaker.ts';
import { ProviderTransportError, type HttpAnswer, type ProviderHttp } from '../../../src/network/provider/http-client.ts';
import { createProviderApi, ProviderAuthRefused, ProviderUnavailable } from '../../../src/network/provider/provider-api.ts';

type Step = HttpAnswer | 'refused' | 'timeout';
const TOKEN: HttpAnswer = { status: 201, body: { access_token: 'tok', token_type: 'Bearer', expires_in: 1800 } };

/** A provider that answers from a script, recording every request. */
function scripted(script: Step[]) {
  const calls: Array<{ method: string; path: string; headers: Record<string, string> }> = [];
  const http: ProviderHttp = {
    async send(input) {
      calls.push({ method: input.method, path: input.path, headers: input.headers ?? {} });
      const step = script.shift();
      if (step === undefined) throw new Error(`unexpected call ${input.method} ${input.path}`);
      if (step === 'refused') throw new ProviderTransportError(`${input.method} ${input.path}: ECONNREFUSED`);
      if (step === 'timeout') throw new ProviderTransportError(`${input.method} ${input.path}: timed out`);
      return step;
    },
    close: async () => {},
  };
  return { http, calls, script };
}

function api(script: Step[], options: { threshold?: number; certHeader?: string } = {}) {
  const s = scripted(script);
  const sleeps: number[] = [];
  let t = 1_000_000;
  const breaker = createCircuitBreaker({ threshold: options.threshold ?? 100, cooldownMs: 15_000, now: () => t });
  const a = createProviderApi({
    http: s.http,
    breaker,
    credentials: { clientId: 'client', clientSecret: 'secret-123' },
    certHeader: options.certHeader,
    retry: { attempts: 3, baseMs: 100, maxMs: 1_000 },
    logger: pino({ level: 'silent' }),
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
    random: () => 0.5,
  });
  return { a, calls: s.calls, script: s.script, sleeps, breaker, advance: (ms: number) => (t += ms) };
}

describe('provider API calls', () => {
  it('gets a token first (certificate in X-SSL-Client-Cert when configured), then calls with it', async () => {
    const k = api([TOKEN, { status: 201, body: { transactionId: 'p1' } }], { certHeader: 'PEM%20ENCODED' });
    const answer = await k.a.call('POST', '/api/pix/cash-out', { value: 1 });
    expect(answer).toEqual({ status: 201, body: { transactionId: 'p1' } });
    expect(k.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/auth/token', 'POST /api/pix/cash-out']);
    expect(k.calls[0]!.headers['x-ssl-client-cert']).toBe('PEM%20ENCODED');
    expect(k.calls[1]!.headers).toMatchObject({ authorization: 'Bearer tok', 'x-ssl-client-cert': 'PEM%20ENCODED' });
  });

  it('retries timeouts, connection errors and 5xx with growing jittered waits, then answers', async () => {
    const k = api([TOKEN, 'timeout', { status: 503, body: {} }, { status: 200, body: { ok: true } }]);
    expect((await k.a.call('GET', '/api/balance')).status).toBe(200);
    expect(k.sleeps).toEqual([50, 100]); // random 0.5 of 100 ms, then of 200 ms
  });

  it('never retries a 4xx: that is the provider speaking', async () => {
    const k = api([TOKEN, { status: 400, body: { code: 'PIX_INVALID_PIX_KEY' } }]);
    expect(await k.a.call('POST', '/api/pix/cash-out', {})).toEqual({ status: 400, body: { code: 'PIX_INVALID_PIX_KEY' } });
    expect(k.calls).toHaveLength(2);
  });

  it('gives up after its attempts with ProviderUnavailable and a later time to ask again', async () => {
    const k = api([TOKEN, 'refused', 'refused', { status: 502, body: {} }]);
    const error = await k.a.call('GET', '/api/balance').catch((e) => e);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error.reason).toMatch(/5xx|ECONNREFUSED/);
    expect(error.retryAfterMs).toBeGreaterThanOrEqual(1_000);
  });

  it('a 401 renews the token once; a second 401 is our credentials refused, not the provider away', async () => {
    const k = api([TOKEN, { status: 401, body: {} }, TOKEN, { status: 200, body: {} }]);
    expect((await k.a.call('GET', '/api/balance')).status).toBe(200);
    expect(k.calls.map((c) => c.path)).toEqual(['/api/auth/token', '/api/balance', '/api/auth/token', '/api/balance']);
    const refused = api([TOKEN, { status: 401, body: {} }, TOKEN, { status: 401, body: { code: 'HTTP_ERROR' } }]);
    await expect(refused.a.call('GET', '/api/balance')).rejects.toBeInstanceOf(ProviderAuthRefused);
  });

  it('a token route that refuses our credentials is ProviderAuthRefused with its code', async () => {
    const k = api([{ status: 401, body: { code: 'PUB_CERT_NOT_REGISTERED' } }]);
    const error = await k.a.call('GET', '/api/balance').catch((e) => e);
    expect(error).toBeInstanceOf(ProviderAuthRefused);
    expect(error.code).toBe('PUB_CERT_NOT_REGISTERED');
  });

  it('the circuit opens after failures in a row; then calls fail at once, without touching the provider, until a trial call', async () => {
    const k = api([TOKEN, 'refused', 'refused', 'refused'], { threshold: 3 });
    await expect(k.a.call('GET', '/api/balance')).rejects.toBeInstanceOf(ProviderUnavailable);
    expect(k.breaker.state()).toBe('open');
    const before = k.calls.length;
    const fast = await k.a.call('GET', '/api/balance').catch((e) => e);
    expect(fast).toBeInstanceOf(ProviderUnavailable);
    expect(fast.reason).toMatch(/circuit is open/);
    expect(fast.retryAfterMs).toBeGreaterThan(10_000);
    expect(k.calls.length).toBe(before);
    k.advance(15_000);
    expect(k.breaker.state()).toBe('half_open');
    k.script.push({ status: 200, body: { grossBalance: 1 } });
    expect((await k.a.call('GET', '/api/balance')).status).toBe(200);
    expect(k.breaker.state()).toBe('closed');
  });
});
