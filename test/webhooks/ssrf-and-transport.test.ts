import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cents } from '../../src/domain/money.ts';
import { registrationsRepo } from '../../src/webhooks/registrations.repo.ts';
import { createWebhookTransport } from '../../src/webhooks/transport.ts';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { providerEnv } from '../provider-env.ts';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

describe('production relay (SSRF guard)', () => {
  let h: Harness;
  beforeAll(async () => {
    // Registration resolves names in production: hooks.example.com answers a public address, no DNS needed.
    h = await startHarness({ env: { MODE: 'production', ...providerEnv() }, resolver: async () => [{ address: '93.184.215.14', family: 4 }] });
  });
  afterAll(() => h.close());

  it('refuses private destinations at registration', async () => {
    const { id } = await h.createAccount();
    for (const url of ['http://127.0.0.1:8080/', 'https://127.0.0.1/', 'https://localhost/', 'https://169.254.169.254/latest', 'https://[::1]/', 'https://10.0.0.8/']) {
      const res = await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url });
      expect(res.statusCode, url).toBe(400);
    }
    expect((await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: 'https://hooks.example.com/' })).statusCode).toBe(201);
  });

  it('refuses at delivery time a URL on 127.0.0.1, and a name that resolves to loopback, logging why', async () => {
    const { id } = await h.createAccount();
    const at = h.clock.now();
    const literal = rx.url('/prod-literal');
    const https = `https://127.0.0.1:${rx.port}/prod-https`;
    const named = `https://localhost:${rx.port}/prod-named`;
    // Written directly: registration itself would refuse these in production.
    for (const url of [literal, https, named]) {
      await registrationsRepo.insert(h.c.db, { accountId: id, eventType: 'cash_in', url, headers: [], at });
    }
    await registrationsRepo.ensureSecret(h.c.db, id, at);
    await h.c.deposits.deposit(id, 100 as Cents);
    expect(await h.c.webhookRelay.runDue()).toBe(3);
    expect(rx.requests.filter((r) => r.path.startsWith('/prod-'))).toHaveLength(0);
    const logs = await h.c.db.selectFrom('webhook_logs').selectAll().where('account_id', '=', id).orderBy('id').execute();
    const byUrl = Object.fromEntries(logs.map((l) => [l.url, l]));
    expect(byUrl[literal]).toMatchObject({ status_code: null, error: expect.stringMatching(/refused destination .*HTTPS only/) });
    expect(byUrl[https]).toMatchObject({ status_code: null, error: expect.stringMatching(/refused destination 127\.0\.0\.1: .*loopback/) });
    expect(byUrl[named]).toMatchObject({ status_code: null, error: expect.stringMatching(/refused destination localhost: .*loopback/) });
    // A refused attempt is a failed attempt: it is retried on the schedule like any other.
    const deliveries = await h.c.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', id).execute();
    expect(deliveries.map((d) => [d.status, d.attempts])).toEqual([['pending', 1], ['pending', 1], ['pending', 1]]);
  });
});

describe('webhook transport', () => {
  it('gives up on a receiver that does not answer within the timeout', async () => {
    rx.on('/hang', () => 'hang');
    const transport = createWebhookTransport({ mode: 'sandbox', timeoutMs: 300 });
    const result = await transport.send({ url: rx.url('/hang'), body: '{}', headers: { 'content-type': 'application/json' } });
    await transport.close();
    expect(result.statusCode).toBeNull();
    expect(result.error).toBe('timed out after 300 ms');
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    // The receiver never answers: only the 300 ms timeout ends the send (the error says so). The upper
    // bound is for a busy machine's scheduling, under the test's own 30 s.
    expect(result.durationMs).toBeLessThan(20_000);
  });
});
