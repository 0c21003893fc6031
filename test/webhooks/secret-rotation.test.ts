import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { harnessAndReceiver } from './suite.ts';
import { loadConfig } from '../../src/config.ts';
import { createWebhookRegistrationService } from '../../src/services/webhooks/registration.service.ts';
import { systemResolver } from '../../src/webhooks/host-resolver.ts';
import { webhookUrlPolicy } from '../../src/webhooks/url-policy.ts';
import { ADMIN_TOKEN } from '../harness.ts';
import type { ReceivedRequest } from './receiver.ts';

/**
 * POST /admin/accounts/{id}/webhook-secret/rotate (issue 21 item 3): during the overlap
 * (WEBHOOK_SECRET_OVERLAP_S, default 86400 s on the service clock) every delivery carries a `v1,`
 * signature by each secret, so a receiver verifies it with the old secret or the new one
 * (standardwebhooks' own verifier); after it, with the new one only.
 */
const suite = harnessAndReceiver();

let seq = 0;
async function accountWithReceiver() {
  const account = await suite.h.createAccount();
  const path = `/rotation-${++seq}`;
  expect((await suite.h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: suite.rx.url(path) })).statusCode).toBe(201);
  return { account, path };
}

/** One deposit's cash_in delivery, as the receiver got it. */
async function deliveryOf(accountId: number, path: string, amount: number): Promise<ReceivedRequest> {
  const before = suite.rx.to(path).length;
  await suite.h.deposit(accountId, amount);
  await suite.h.deliverWebhooks();
  const got = suite.rx.to(path);
  expect(got).toHaveLength(before + 1);
  return got[got.length - 1]!;
}

const verifies = (secret: string, req: ReceivedRequest) => {
  try {
    return (new Webhook(secret).verify(req.body, req.headers as Record<string, string>) as { originalAmount: number }).originalAmount;
  } catch {
    return 'refused';
  }
};

describe('webhook signing-secret rotation', () => {
  it('signs with both secrets during the overlap, then with the new one only (standardwebhooks verifier, real receiver)', async () => {
    const { account, path } = await accountWithReceiver();
    const oldSecret = (await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret as string;
    const before = await deliveryOf(account.id, path, 1.01);
    expect(String(before.headers['webhook-signature']).split(' ')).toHaveLength(1);

    const rotated = await suite.h.admin('POST', `/admin/accounts/${account.id}/webhook-secret/rotate`);
    expect(rotated.statusCode).toBe(200);
    const { secret: newSecret, previousSecretValidUntil } = rotated.json();
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(previousSecretValidUntil).toBe(new Date(suite.h.clock.now().getTime() + 86_400_000).toISOString());
    // The secret the account's GET answers is the new one.
    expect((await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret).toBe(newSecret);

    const during = await deliveryOf(account.id, path, 2.02);
    const signatures = String(during.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    for (const signature of signatures) expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifies(oldSecret, during)).toBe(2.02);
    expect(verifies(newSecret, during)).toBe(2.02);
    expect(verifies('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', during)).toBe('refused');

    // Still both one second before the overlap ends (service clock).
    await suite.h.advance(86_400 - 1);
    const last = await deliveryOf(account.id, path, 3.03);
    expect(verifies(oldSecret, last)).toBe(3.03);
    expect(verifies(newSecret, last)).toBe(3.03);

    await suite.h.advance(1);
    const after = await deliveryOf(account.id, path, 4.04);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(newSecret, after)).toBe(4.04);
    expect(verifies(oldSecret, after)).toBe('refused');
  });

  it('a retry made after the overlap is signed by the new secret only, though its first attempt carried both', async () => {
    const { account } = await accountWithReceiver();
    const path = `/rotation-retry-${++seq}`;
    suite.rx.on(path, (_req, nth) => (nth === 1 ? { status: 503 } : { status: 200 }));
    expect((await suite.h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: suite.rx.url(path) })).statusCode).toBe(201);
    const oldSecret = (await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret as string;
    const newSecret = (await suite.h.admin('POST', `/admin/accounts/${account.id}/webhook-secret/rotate`)).json().secret as string;
    await suite.h.advance(86_400 - 10);
    await suite.h.deposit(account.id, 5.05);
    await suite.h.deliverWebhooks();
    const [first] = suite.rx.to(path);
    expect(verifies(oldSecret, first!)).toBe(5.05);
    await suite.h.advance(60); // the first retry is due 5 s later; the overlap ended meanwhile
    const retried = suite.rx.to(path);
    expect(retried).toHaveLength(2);
    expect(retried[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verifies(newSecret, retried[1]!)).toBe(5.05);
    expect(verifies(oldSecret, retried[1]!)).toBe('refused');
  });

  it('a second rotation within the overlap keeps only the secret it replaced; resends are signed the same way', async () => {
    const { account, path } = await accountWithReceiver();
    const first = (await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret as string;
    const second = (await suite.h.admin('POST', `/admin/accounts/${account.id}/webhook-secret/rotate`)).json().secret as string;
    suite.h.clock.advance(60);
    const third = (await suite.h.admin('POST', `/admin/accounts/${account.id}/webhook-secret/rotate`)).json();
    expect(third.previousSecretValidUntil).toBe(new Date(suite.h.clock.now().getTime() + 86_400_000).toISOString());
    const delivered = await deliveryOf(account.id, path, 6.06);
    expect(verifies(third.secret, delivered)).toBe(6.06);
    expect(verifies(second, delivered)).toBe(6.06);
    expect(verifies(first, delivered)).toBe('refused');

    // POST /api/resend-webhook signs with the secrets of the moment too.
    const tx = JSON.parse(delivered.body).transactionId as string;
    const token = await suite.h.tokenFor(account.id);
    expect((await suite.h.api('POST', `/api/resend-webhook/${tx}`, token)).statusCode).toBe(200);
    const resent = suite.rx.to(path).at(-1)!;
    expect(resent).not.toBe(delivered);
    expect(verifies(third.secret, resent)).toBe(6.06);
    expect(verifies(second, resent)).toBe(6.06);
  });

  it('every rotation is audited (never the secret itself); an account without a secret gets its first one; unknown account 404', async () => {
    const account = await suite.h.createAccount();
    const res = await suite.h.admin('POST', `/admin/accounts/${account.id}/webhook-secret/rotate`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ secret: expect.stringMatching(/^whsec_/), previousSecretValidUntil: null });
    await suite.h.admin('POST', `/admin/accounts/${account.id}/webhook-secret/rotate`);
    const rows = await suite.h.c.db.selectFrom('audit_log').selectAll().where('target', '=', `webhook-secret:${account.id}`).orderBy('id').execute();
    expect(rows.map((r) => [r.action, r.actor, r.account_id])).toEqual([
      ['webhook-secret.rotate', 'admin-api', account.id],
      ['webhook-secret.rotate', 'admin-api', account.id],
    ]);
    expect(JSON.stringify(rows)).not.toContain('whsec_');
    const unknown = await suite.h.admin('POST', '/admin/accounts/987654/webhook-secret/rotate');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
    expect((await suite.h.admin('POST', '/admin/accounts/abc/webhook-secret/rotate')).json().message).toEqual([expect.stringMatching(/^id /)]);
  });

  it('WEBHOOK_SECRET_OVERLAP_S sets the overlap (a whole number of seconds, 0 to 30 days)', async () => {
    const env = { MODE: 'sandbox', ADMIN_TOKEN, DATA_DIR: 'memory://' };
    expect(loadConfig(env).webhookSecretOverlapS).toBe(86_400);
    const config = loadConfig({ ...env, WEBHOOK_SECRET_OVERLAP_S: '600' });
    expect(() => loadConfig({ ...env, WEBHOOK_SECRET_OVERLAP_S: '1h' })).toThrow(/WEBHOOK_SECRET_OVERLAP_S/);
    expect(() => loadConfig({ ...env, WEBHOOK_SECRET_OVERLAP_S: String(31 * 86_400) })).toThrow(/WEBHOOK_SECRET_OVERLAP_S/);
    // The service as the container builds it from that configuration, on this suite's database.
    const webhooks = createWebhookRegistrationService({ db: suite.h.c.db, clock: suite.h.clock, urls: webhookUrlPolicy('sandbox', systemResolver), secretOverlapS: config.webhookSecretOverlapS });
    const account = await suite.h.createAccount();
    await webhooks.secretOf(account.id);
    const rotated = await webhooks.rotateSecret(account.id);
    expect(rotated.previousSecretValidUntil).toEqual(new Date(suite.h.clock.now().getTime() + 600_000));
  });
});
