import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeAndWait } from '../../examples/charge-and-wait.ts';
import { findAccounts, rotateWebhookSecret, webhookHealth } from '../../examples/operator-tasks.ts';
import { payoutWithPolling } from '../../examples/payout-with-polling.ts';
import { startWebhookReceiver } from '../../examples/webhook-receiver.ts';
import { Webhook } from 'standardwebhooks';
import { createPixAdminClient, createPixClient, type PixClient, type WebhookEvent } from '../../sdk/src/index.ts';
import { cpf } from '../factories.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { startReceiver } from '../webhooks/receiver.ts';

/** The examples/ scripts, run against the service listening on a port. */
describe('examples/', () => {
  let h: Harness;
  let account: { id: number };
  let client: PixClient;
  let baseUrl: string;

  beforeAll(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    account = await h.createAccount({ funds: 500 });
    const cert = (await h.admin('POST', `/admin/accounts/${account.id}/certificates`, {})).json();
    const creds = (await h.admin('POST', `/admin/accounts/${account.id}/credentials`, {})).json();
    baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    client = createPixClient({
      baseUrl,
      clientId: creds.clientId,
      clientSecret: creds.clientSecret,
      certificate: { cert: cert.certificatePem },
    });
  });
  afterAll(() => h.close());

  it('charge-and-wait: waits until the charge is paid, and the webhook receiver verifies the cash_in event once', async () => {
    const secret = (await h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret as string;
    const events: Array<{ id: string; event: WebhookEvent }> = [];
    let created = '';
    const receiver = await startWebhookReceiver({ secret, onEvent: (event, id) => void events.push({ id, event }) });
    try {
      expect((await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: `${receiver.url}/pix` })).statusCode).toBe(201);
      const tx = await chargeAndWait(
        client,
        { value: 42.5, description: 'Pedido 42', payer: { fullName: 'Maria da Silva', document: cpf(42) } },
        {
          onCreated: async (charge) => {
            created = charge.transactionId;
            const paid = await h.admin('POST', `/sandbox/charges/${charge.transactionId}/pay`, { accountId: account.id });
            expect(paid.statusCode).toBe(200);
            await h.advance(5);
          },
        },
      );
      expect(tx).toMatchObject({ status: 'CONFIRMED', type: 'PAYMENT' });
      await h.deliverWebhooks();
      expect(events).toHaveLength(1);
      expect(events[0]!.event).toMatchObject({ event: 'CashIn', transactionId: created, status: 'CONFIRMED' });

      // A forged delivery is refused; the same delivery again is acknowledged and not handled twice.
      const forged = await fetch(`${receiver.url}/pix`, {
        method: 'POST',
        headers: { 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
        body: '{"event":"CashIn"}',
      });
      expect(forged.status).toBe(400);
      expect(events).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('payout-with-polling: sends a payout and polls it to its final status', async () => {
    const tx = await payoutWithPolling(
      client,
      { value: 12.34, key: 'joao@example.com', keyType: 'EMAIL', name: 'João Souza', document: cpf(77) },
      { onPoll: async () => void (await h.advance(2)) },
    );
    expect(tx.status).toBe('CONFIRMED');
    expect(tx.type).toBe('WITHDRAW');
  });

  it('operator-tasks: finds the account, reads its failed attempts, sends a test event and rotates the secret (admin client)', async () => {
    const admin = createPixAdminClient({ baseUrl, adminToken: ADMIN_TOKEN });
    const found = await findAccounts(admin, String(account.id));
    expect(found.map((a) => a.id)).toContain(account.id);
    const rx = await startReceiver();
    try {
      rx.on('/refunds', (_req, nth) => (nth === 1 ? { status: 502 } : { status: 200 }));
      expect((await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'refund_out', url: rx.url('/refunds') })).statusCode).toBe(201);
      const first = await webhookHealth(admin, account.id, { event: 'refund_out' });
      expect(first.test?.attempts).toEqual([expect.objectContaining({ url: rx.url('/refunds'), statusCode: 502, delivered: false })]);
      const second = await webhookHealth(admin, account.id, { event: 'refund_out' });
      expect(second.failed.map((a) => [a.kind, a.statusCode])).toContainEqual(['test', 502]);
      expect(second.test?.attempts[0]).toMatchObject({ statusCode: 200, delivered: true });

      const before = (await h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret as string;
      const rotated = await rotateWebhookSecret(admin, account.id);
      expect(rotated.previousSecretValidUntil).not.toBeNull();
      await webhookHealth(admin, account.id, { event: 'refund_out' });
      const [, , third] = rx.to('/refunds');
      for (const secret of [before, rotated.secret]) expect(new Webhook(secret).verify(third!.body, third!.headers as Record<string, string>)).toMatchObject({ event: 'CashOutReversal' });
    } finally {
      await rx.close();
    }
  });
});
