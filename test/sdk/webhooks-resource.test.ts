import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPixClient, PixApiError } from '../../sdk/src/index.ts';
import { startHarness, type Harness } from '../harness.ts';

/**
 * The account client's `webhooks` resource (decisions section 8: `webhooks.list|create|delete|resend`)
 * against the service listening on a port, with the account webhook routes enabled.
 */
describe('sdk: pix.webhooks.create, list and delete', () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startHarness({ env: { WEBHOOK_ROUTES_ENABLED: 'true' } });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => h.close());

  it('registers a URL, lists it, deletes it; a second delete is a typed 404', async () => {
    const account = await h.createAccount();
    const cert = (await h.admin('POST', `/admin/accounts/${account.id}/certificates`, {})).json();
    const creds = (await h.admin('POST', `/admin/accounts/${account.id}/credentials`, {})).json();
    const pix = createPixClient({ baseUrl: url, clientId: creds.clientId, clientSecret: creds.clientSecret, certificate: { cert: cert.certificatePem, key: cert.privateKeyPem } });

    expect(await pix.webhooks.create({ eventType: 'cash_out', url: 'https://hooks.example.com/sdk' })).toEqual({ success: true, message: 'Webhook registered.' });
    const listed = await pix.webhooks.list();
    expect(listed.webhooks).toHaveLength(1);
    const id = Number(listed.webhooks[0]!.id);

    await expect(pix.webhooks.delete(id)).resolves.toBeUndefined();
    expect((await pix.webhooks.list()).webhooks).toEqual([]);
    const again = await pix.webhooks.delete(id).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(PixApiError);
    expect(again).toMatchObject({ status: 404, code: 'WEBHOOK_NOT_FOUND' });
  });
});
