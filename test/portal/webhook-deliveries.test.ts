import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { signedInMember } from './portal-client.ts';

let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  h = await startHarness();
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await h.close();
});

describe("a transaction's webhook deliveries in the portal", () => {
  it('lists each delivery with its attempts and resends one URL or all of them', async () => {
    const account = await h.createAccount();
    for (const p of ['/a', '/b']) {
      const headers = [{ key: 'X-Receiver', value: p }];
      expect((await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: rx.url(p), headers })).statusCode).toBe(201);
    }
    const tx = (await h.deposit(account.id, 10)) as { transactionId: string };
    await h.c.webhookRelay.runDue();
    expect(rx.to('/a')).toHaveLength(1);
    const member = await signedInMember(h, account.id, 'hooks@example.com');
    const page = await member.get(`/portal/transactions/${tx.transactionId}`);
    expect(page.body).toContain(rx.url('/a'));
    expect(page.body).toContain(rx.url('/b'));
    expect(page.body).toContain('pill-ok">Delivered · 200');

    const resendA = /<input type="hidden" name="webhook" value="(\d+)"\/><button class="secondary button" type="submit" aria-label="Resend to ([^"]+)"/g;
    const webhookOf = Object.fromEntries([...page.body.matchAll(resendA)].map((m) => [m[2]!, m[1]!]));
    const one = await member.post(`/portal/webhooks/resend-transaction/${tx.transactionId}`, { webhook: webhookOf[rx.url('/a')]! });
    expect(one.statusCode).toBe(303);
    expect(rx.to('/a')).toHaveLength(2);
    expect(rx.to('/b')).toHaveLength(1);
    // Resending one delivery sends it as registered: with that URL's custom headers.
    expect(rx.to('/a')[1]!.headers['x-receiver']).toBe('/a');
    const all = await member.post(`/portal/webhooks/resend-transaction/${tx.transactionId}`);
    expect(all.statusCode).toBe(303);
    expect(rx.to('/a')).toHaveLength(3);
    expect(rx.to('/b')).toHaveLength(2);
    const log = await member.get('/portal/webhooks');
    expect(log.body).toContain('Latest delivery attempts');
    expect(log.body).toMatch(/pill-ok">200</);

    // Each delivery's attempt log: the relay's attempt and the two resends to /a, one resend to /b.
    const detail = await member.get(`/portal/transactions/${tx.transactionId}`);
    expect(attemptLog(detail.body, rx.url('/a'))).toEqual(['Resend 200', 'Resend 200', 'Attempt 1 200']);
    expect(attemptLog(detail.body, rx.url('/b'))).toEqual(['Resend 200', 'Attempt 1 200']);
  });

  it("a failing URL's attempt log shows the response status, the duration and the next retry", async () => {
    rx.on('/down', () => ({ status: 503, body: 'maintenance' }));
    const account = await h.createAccount();
    expect((await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: rx.url('/down') })).statusCode).toBe(201);
    const tx = (await h.deposit(account.id, 5)) as { transactionId: string };
    await h.c.webhookRelay.runDue();
    expect(rx.to('/down')).toHaveLength(1);
    const member = await signedInMember(h, account.id, 'down@example.com');
    const page = await member.get(`/portal/transactions/${tx.transactionId}`);
    expect(attemptLog(page.body, rx.url('/down'))).toEqual(['Attempt 1 503']);
    const summary = page.body.slice(page.body.indexOf(`Attempt log of ${rx.url('/down')}`));
    expect(summary).toMatch(/^[^]*?Next retry: \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/);
    expect(summary).toMatch(/<td class="num">\d+ ms<\/td>/);
    expect(page.body).toContain('Retrying · 503');
  });
});

/** The rows of a delivery's attempt log on a transaction page: "<kind> <status>", newest first. */
function attemptLog(html: string, url: string): string[] {
  const start = html.indexOf(`Attempt log of ${url} (`);
  if (start < 0) return [];
  const block = html.slice(start, html.indexOf('</details>', start));
  return [...block.matchAll(/<tr><td>[^<]*<\/td><td><span class="pill [^"]+">([^<]*)<\/span><\/td><td class="num">\d+ ms<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => `${m[2]!.trim()} ${m[1]}`);
}
