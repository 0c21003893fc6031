import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpf } from '../../factories.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../../harness.ts';
import { providerEnv } from '../../provider-env.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';

// Issue 25 item 4: provider calls carry W3C `traceparent`.
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const INCOMING_SPAN = '00f067aa0ba902b7';
/** Another trace: the charges of the tests above, made with TRACE_ID, are checked in theirs. */
const CHARGE_TRACE_ID = '9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f';
const TRACEPARENT_FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

let h: Harness;
let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
  h = await startHarness({ env: { MODE: 'production', ADMIN_TOKEN, TRUSTED_PROXIES: '127.0.0.1', ...providerEnv({ PROVIDER_URL: fake.url }) } });
  await h.runJobs(); // the start's webhook registration and statement check
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

let seq = 0;
async function createCharge(headers: Record<string, string>) {
  const account = await h.createAccount();
  const token = await h.tokenFor(account.id);
  fake.requests.length = 0;
  const externalId = `trace-${++seq}`;
  const res = await h.api('POST', '/api/pix/cash-in', token, { transaction: { value: 10, description: 'Pedido', externalId }, payer: { fullName: 'Cliente', document: cpf(seq + 500) } }, headers);
  expect(res.statusCode, res.body).toBe(201);
  const call = fake.requests.find((r) => r.path === '/api/pix/cash-in');
  expect(call).toBeDefined();
  const match = TRACEPARENT_FORMAT.exec(String(call!.headers.traceparent));
  expect(match, String(call!.headers.traceparent)).not.toBeNull();
  return { traceId: match![1]!, spanId: match![2]! };
}

describe('traceparent on provider calls', () => {
  it('a call made for a traced request carries its trace id with a new span id', async () => {
    const sent = await createCharge({ traceparent: `00-${TRACE_ID}-${INCOMING_SPAN}-01` });
    expect(sent.traceId).toBe(TRACE_ID);
    expect(sent.spanId).not.toBe(INCOMING_SPAN);
  });

  it('a call for an untraced request starts a fresh trace each time', async () => {
    const a = await createCharge({});
    const b = await createCharge({ traceparent: 'not-a-traceparent' });
    expect(a.traceId).not.toBe(TRACE_ID);
    expect(b.traceId).not.toBe(a.traceId);
  });

  it("background calls (jobs) carry a valid traceparent: a charge's checks the trace of the request that created it (issue 31 item 4), other work never a request's", async () => {
    fake.requests.length = 0;
    await createCharge({ traceparent: `00-${CHARGE_TRACE_ID}-${INCOMING_SPAN}-01` });
    const reference = fake.requests.find((r) => r.path === '/api/pix/cash-in')!.body.transaction.externalId as string;
    fake.requests.length = 0;
    await h.advance(3600); // reconciliation and checks fall due
    const background = fake.requests;
    const checks = background.filter((call) => call.path === `/api/pix/transaction/${reference}`);
    expect(checks.length).toBeGreaterThan(0);
    expect(background.length).toBeGreaterThan(checks.length);
    for (const call of background) {
      expect(String(call.headers.traceparent)).toMatch(TRACEPARENT_FORMAT);
      if (checks.includes(call)) expect(String(call.headers.traceparent)).toContain(CHARGE_TRACE_ID);
      else expect(String(call.headers.traceparent), call.path).not.toContain(CHARGE_TRACE_ID);
    }
  });
});
