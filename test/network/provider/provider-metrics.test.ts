import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endToEndId } from '../../../src/domain/ids.ts';
import { signatureHeaders } from '../../../src/webhooks/signature.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../../harness.ts';
import { providerEnv, TEST_PROVIDER_WEBHOOK_SECRET } from '../../provider-env.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';

/**
 * The provider's metrics on GET /metrics (issue 31 item 5): the statement check's mismatches, the
 * suspense items open, the circuit breaker (0/1) and every exchange's duration by outcome, each
 * with its series from the start.
 */
const METRICS_TOKEN = 'metrics-token-provider-0123456789abcdef';
let h: Harness;
let fake: FakeProvider;

beforeAll(async () => {
  fake = await startFakeProvider();
  h = await startHarness({ env: { MODE: 'production', ADMIN_TOKEN, METRICS_TOKEN, TRUSTED_PROXIES: '127.0.0.1', ...providerEnv({ PROVIDER_URL: fake.url }) } });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

async function scrape(): Promise<string> {
  const res = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
}

function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('provider metrics', () => {
  it('every series is there from the start', async () => {
    const text = await scrape();
    expect(value(text, 'provider_circuit_open')).toBe(0);
    expect(value(text, 'suspense_items')).toBe(0);
    expect(value(text, 'provider_statement_mismatches')).toBe(0);
    for (const outcome of ['2xx', '4xx', '5xx', 'error']) expect(value(text, `provider_call_duration_seconds_count{outcome="${outcome}"}`)).toBe(0);
  });

  it('provider_call_duration_seconds counts each exchange by outcome', async () => {
    await h.runJobs(); // the start's webhook registration and statement check: a token, then calls
    const text = await scrape();
    const calls = fake.requests.length;
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(value(text, 'provider_call_duration_seconds_count{outcome="2xx"}')).toBe(calls);
    expect(value(text, 'provider_call_duration_seconds_bucket{le="+Inf",outcome="2xx"}')).toBe(calls);
    expect(value(text, 'provider_call_duration_seconds_sum{outcome="2xx"}')).toBeGreaterThan(0);
  });

  it('provider_statement_mismatches: the checks of the last 24 hours that found a difference', async () => {
    expect((await h.admin('POST', '/admin/network/statement-check')).statusCode).toBe(200);
    expect(value(await scrape(), 'provider_statement_mismatches')).toBe(0);
    fake.balance = 12.34;
    expect((await h.admin('POST', '/admin/network/statement-check')).json()).toMatchObject({ difference: 12.34 });
    expect(value(await scrape(), 'provider_statement_mismatches')).toBe(1);
    fake.balance = 0;
    await h.advance(86_401);
    expect(value(await scrape(), 'provider_statement_mismatches')).toBe(0);
  });

  it('suspense_items: money received for no known account, until an operator assigns it', async () => {
    const account = await h.createAccount();
    const body = JSON.stringify({
      event: 'CashIn', status: 'CONFIRMED', transactionType: 'PIX', movementType: 'CREDIT', transactionId: 'p-unknown-1', externalId: 'nobody-knows-this',
      endToEndId: endToEndId('E', '60746948', h.clock.now()), originalAmount: 7, feeAmount: 0, finalAmount: 7, errorCode: null, errorMessage: null,
      counterpart: { name: 'Maria Pagadora', document: '***.456.789-**', bank: { bankISPB: '60746948', bankName: 'Banco', bankCode: '237' } },
    });
    const noticed = await h.app.inject({
      method: 'POST',
      url: '/network/provider/webhooks',
      headers: { 'content-type': 'application/json', ...signatureHeaders(TEST_PROVIDER_WEBHOOK_SECRET, 'msg_suspense_1', new Date(), body) },
      payload: body,
    });
    expect(noticed.statusCode).toBe(200);
    expect(value(await scrape(), 'suspense_items')).toBe(1);
    const item = (await h.admin('GET', '/admin/network/suspense?status=OPEN')).json().data[0];
    expect((await h.admin('POST', `/admin/network/suspense/${item.id}/assign`, { accountId: account.id })).statusCode).toBe(200);
    expect(value(await scrape(), 'suspense_items')).toBe(0);
  });

  it('provider_circuit_open is 1 while the breaker refuses calls, and failed exchanges count as errors', async () => {
    await fake.close(); // the provider is gone: every exchange fails to connect
    for (let i = 0; i < 2; i++) await h.admin('POST', '/admin/network/statement-check');
    const text = await scrape();
    expect(value(text, 'provider_circuit_open')).toBe(1);
    expect(value(text, 'provider_call_duration_seconds_count{outcome="error"}')).toBeGreaterThanOrEqual(5);
  });
});
