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
    for (const p of ['/a', '/b']) expect((await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: rx.url(p) })).statusCode).toBe(201);
    const tx = (await h.deposit(account.id, 10)) as { transactionId: string };
    await h.c.webhookRelay.runDue();
    expect(rx.to('/a')).toHaveLength(1);
    const member = await signedInMember(h, account.id, 'hooks@example.com');
    const page = await member.get(`/portal/transactions/${tx.transactionId}`);
    expect(page.body).toContain(rx.url('/a'));
    expect(page.body).toContain(rx.url('/b'));
    expect(page.body).toContain('pill-ok">delivered · 200');

    const one = await member.post(`/portal/webhooks/resend-transaction/${tx.transactionId}`, { url: rx.url('/a') });
    expect(one.statusCode).toBe(303);
    expect(rx.to('/a')).toHaveLength(2);
    expect(rx.to('/b')).toHaveLength(1);
    const all = await member.post(`/portal/webhooks/resend-transaction/${tx.transactionId}`);
    expect(all.statusCode).toBe(303);
    expect(rx.to('/a')).toHaveLength(3);
    expect(rx.to('/b')).toHaveLength(2);
    const log = await member.get('/portal/webhooks');
    expect(log.body).toContain('Latest delivery attempts');
    expect(log.body).toMatch(/pill-ok">200</);
  });
});
