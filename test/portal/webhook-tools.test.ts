import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { harnessAndReceiver } from '../webhooks/suite.ts';
import { signedInMember, signedInOperator } from './portal-client.ts';

/** The portal's webhooks page (member and back office): rotate the signing secret, send a test event (issue 21 item 3). */
const suite = harnessAndReceiver();

const secretOnPage = (body: string) => /id="webhook-secret" class="mono" readonly="" value="(whsec_[^"]+)"/.exec(body)?.[1];

describe('webhooks page: secret rotation and test event', () => {
  it('a member rotates the secret (shown once, with the overlap\'s end) and deliveries then verify with either secret', async () => {
    const account = await suite.h.createAccount();
    const member = await signedInMember(suite.h, account.id, `hooks${account.id}@example.com`);
    const page = await member.get('/portal/webhooks');
    expect(page.body).toContain('>Rotate secret</button>');
    expect(page.body).toContain('action="/portal/webhooks/secret/rotate"');
    const old = secretOnPage((await member.post('/portal/webhooks/secret')).body)!;
    expect(old).toMatch(/^whsec_/);
    await member.get('/portal/webhooks');
    const rotated = await member.post('/portal/webhooks/secret/rotate');
    expect(rotated.statusCode).toBe(200);
    const fresh = secretOnPage(rotated.body)!;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(rotated.body).toMatch(/role="status" id="rotated">New secret made\. Until \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} every delivery is signed with both/);
    expect((await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret).toBe(fresh);

    await member.post('/portal/webhooks', { eventType: 'cash_in', url: suite.rx.url(`/member-${account.id}`), headers: '' });
    await suite.h.deposit(account.id, 9.99);
    await suite.h.deliverWebhooks();
    const [delivered] = suite.rx.to(`/member-${account.id}`);
    for (const secret of [old, fresh]) expect(new Webhook(secret).verify(delivered!.body, delivered!.headers as Record<string, string>)).toMatchObject({ originalAmount: 9.99 });
    const audit = await suite.h.c.db.selectFrom('audit_log').selectAll().where('action', '=', 'webhook-secret.rotate').where('account_id', '=', account.id).execute();
    expect(audit).toEqual([expect.objectContaining({ actor_email: `hooks${account.id}@example.com` })]);
    // A form without its CSRF token changes nothing.
    expect((await member.post('/portal/webhooks/secret/rotate', { _csrf: '' })).statusCode).toBe(403);
    expect((await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret).toBe(fresh);
  });

  it('a member sends a test event and sees each URL\'s answer; without a URL for that event the page says so', async () => {
    const account = await suite.h.createAccount();
    const member = await signedInMember(suite.h, account.id, `test${account.id}@example.com`);
    suite.rx.on(`/down-${account.id}`, () => ({ status: 500 }));
    await member.post('/portal/webhooks', { eventType: 'cash_out', url: suite.rx.url(`/up-${account.id}`), headers: 'X-Receiver-Key: k1' });
    await member.post('/portal/webhooks', { eventType: 'cash_out', url: suite.rx.url(`/down-${account.id}`), headers: '' });
    await member.get('/portal/webhooks');
    const sent = await member.post('/portal/webhooks/test', { event: 'cash_out' });
    expect(sent.statusCode).toBe(200);
    const result = /<table aria-label="Test event result" id="test-result">([\s\S]*?)<\/table>/.exec(sent.body)![1]!;
    expect(result).toContain(`${suite.rx.url(`/up-${account.id}`)}</td><td><span class="pill pill-ok">200</span>`);
    expect(result).toContain(`${suite.rx.url(`/down-${account.id}`)}</td><td><span class="pill pill-bad">500</span>`);
    const got = suite.rx.to(`/up-${account.id}`)[0]!;
    expect(got.headers['x-receiver-key']).toBe('k1');
    expect(JSON.parse(got.body)).toMatchObject({ event: 'CashOut', metadata: { test: true } });
    // The attempts are in the page's delivery log too.
    expect((await member.get('/portal/webhooks')).body).toContain(`${suite.rx.url(`/down-${account.id}`)}</td>`);

    const none = await member.post('/portal/webhooks/test', { event: 'med_created' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toMatch(/role="alert">event: no active webhook URL is registered for med_created/);
    const bad = await member.post('/portal/webhooks/test', { event: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/role="alert">event must be one of: cash_in/);
  });

  it('an operator does both from the account\'s page in the back office, audited under their name', async () => {
    const operator = await signedInOperator(suite.h);
    const account = await suite.h.createAccount();
    await suite.h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'refund_in', url: suite.rx.url(`/ops-${account.id}`) });
    const page = await operator.get(`/portal/admin/accounts/${account.id}`);
    expect(page.body).toContain(`action="/portal/admin/accounts/${account.id}/webhooks/secret/rotate"`);
    expect(page.body).toContain(`action="/portal/admin/accounts/${account.id}/webhooks/test"`);
    const rotated = await operator.post(`/portal/admin/accounts/${account.id}/webhooks/secret/rotate`);
    expect(rotated.statusCode).toBe(200);
    expect(secretOnPage(rotated.body)).toBe((await suite.h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret);
    await operator.get(`/portal/admin/accounts/${account.id}`);
    const tested = await operator.post(`/portal/admin/accounts/${account.id}/webhooks/test`, { event: 'refund_in' });
    expect(tested.statusCode).toBe(200);
    expect(tested.body).toContain('<span class="pill pill-ok">200</span>');
    expect(JSON.parse(suite.rx.to(`/ops-${account.id}`)[0]!.body)).toMatchObject({ event: 'CashInReversal', metadata: { test: true } });
    const audit = await suite.h.c.db.selectFrom('audit_log').select(['action', 'actor_email']).where('account_id', '=', account.id).where('action', 'in', ['webhook-secret.rotate', 'webhook.test']).orderBy('id').execute();
    expect(audit).toEqual([
      { action: 'webhook-secret.rotate', actor_email: 'ops@example.com' },
      { action: 'webhook.test', actor_email: 'ops@example.com' },
    ]);
  });
});
