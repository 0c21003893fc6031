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

describe('the portal Events page', () => {
  it("shows the account's events with their payload and every attempt, and replays the failed ones since a time", async () => {
    const account = await h.createAccount();
    const other = await h.createAccount();
    expect((await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: rx.url('/events-page') })).statusCode).toBe(201);
    let answer = 500;
    rx.on('/events-page', () => ({ status: answer }));
    await h.deposit(account.id, 12.34);
    await h.deposit(other.id, 99.99);
    for (let i = 0; i < 10; i++) await h.advance(12 * 3600);
    expect(rx.to('/events-page')).toHaveLength(8);

    const member = await signedInMember(h, account.id, 'events-page@example.com');
    const page = await member.get('/portal/events');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="/portal/events"');
    const body = rx.to('/events-page')[0]!.body;
    // The payload as its webhook carried it (HTML-escaped), its id, and its 8 failed attempts.
    expect(page.body).toContain(body.replaceAll('"', '&quot;'));
    expect(page.body).toContain(String(rx.to('/events-page')[0]!.headers['webhook-id']));
    expect(page.body).toContain('Attempts (8)');
    expect(page.body).toContain('Attempt 8');
    // Only the member's own account.
    expect(page.body).not.toContain('99.99');

    answer = 200;
    // The deposit happened at 12:00 in São Paulo on the harness' start day.
    const replay = await member.post('/portal/events/replay', { since: '2026-11-20T11:00' });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe('/portal/events?queued=1');
    await h.deliverWebhooks();
    expect(rx.to('/events-page')).toHaveLength(9);
    expect((await member.get('/portal/events?queued=1')).body).toContain('1 deliveries queued again.');

    const bad = await member.post('/portal/events/replay', { since: 'not a time' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('since');
  }, 60_000);
});
