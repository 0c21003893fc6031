import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';

/**
 * Issue 17 item 4: a claim's lease is liveness, measured on real time; only business time (due times,
 * retries) follows the service clock the sandbox moves.
 */
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

async function eventually(check: () => boolean) {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

describe('webhook claim leases', () => {
  it('advancing the sandbox clock while an attempt is in flight does not send it twice', async () => {
    const { id } = await h.createAccount();
    expect((await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: rx.url('/held') })).statusCode).toBe(201);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    rx.on('/held', async () => {
      await held;
      return { status: 200, body: 'ok' };
    });
    await h.deposit(id, 10);

    const inFlight = h.deliverWebhooks();
    await eventually(() => rx.to('/held').length === 1);
    // An hour of business time passes while the receiver still holds the first attempt.
    const advanced = await h.admin('POST', '/sandbox/clock/advance', { seconds: 3600 });
    expect(advanced.statusCode, advanced.body).toBe(200);
    expect(await h.deliverWebhooks()).toBe(0);
    expect(rx.to('/held')).toHaveLength(1);

    release();
    expect(await inFlight).toBe(1);
    expect(rx.to('/held')).toHaveLength(1);
    const delivery = await h.c.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', id).executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, claim_token: null, lease_until: null });
  });

  it('a retry still falls due on the service clock', async () => {
    const { id } = await h.createAccount();
    expect((await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: rx.url('/retry') })).statusCode).toBe(201);
    rx.on('/retry', (_req, nth) => (nth === 1 ? { status: 500, body: 'later' } : { status: 200, body: 'ok' }));
    await h.deposit(id, 10);
    expect(await h.deliverWebhooks()).toBe(1);
    expect(await h.deliverWebhooks()).toBe(0);
    // The first retry is 5 s later (jittered ±10%): due after the sandbox clock moves, not before.
    await h.admin('POST', '/sandbox/clock/advance', { seconds: 6 });
    expect(rx.to('/retry')).toHaveLength(2);
  });
});
