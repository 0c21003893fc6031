import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, expectTypeOf, it } from 'vitest';
import { createPixAdminClient, createPixClient, PixApiError, type TestClock } from '../../sdk/src/index.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';

const FROZEN = '2027-01-04T15:00:00.000Z';

let h: Harness;
let baseUrl: string;
beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(() => h.close());

async function accountClient() {
  const account = await h.createAccount();
  const cert = (await h.admin('POST', `/admin/accounts/${account.id}/certificates`, {})).json();
  const creds = (await h.admin('POST', `/admin/accounts/${account.id}/credentials`, {})).json();
  const client = createPixClient({ baseUrl, clientId: creds.clientId, clientSecret: creds.clientSecret, certificate: { cert: cert.certificatePem }, certificateTransport: 'header' });
  return { account, client };
}

it('the SDK `clocks` resource: create, advance and wait until ready, get, list (paged), delete; typed refusals', async () => {
  const { account, client } = await accountClient();
  const made = await client.clocks.create({ frozenTime: FROZEN, accountIds: [account.id], name: 'sdk' });
  expectTypeOf(made).toEqualTypeOf<TestClock>();
  expect(made).toEqual({ id: expect.any(String), name: 'sdk', frozenTime: FROZEN, status: 'ready', accountIds: [account.id] });
  const advancing = await client.clocks.advance(made.id, { to: '2027-02-01T00:00:00.000Z' });
  expect(advancing.status).toBe('advancing');
  expect(await client.clocks.waitUntilReady(made.id, { intervalMs: 20 })).toMatchObject({ status: 'ready', frozenTime: '2027-02-01T00:00:00.000Z' });
  const refused = await client.clocks.advance(made.id, { to: FROZEN }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(PixApiError);
  expect((refused as PixApiError).status).toBe(400);

  const admin = createPixAdminClient({ baseUrl, adminToken: ADMIN_TOKEN });
  const twice = await admin.clocks.create({ frozenTime: FROZEN, accountIds: [account.id] }).catch((e: unknown) => e);
  expect((twice as PixApiError).status).toBe(409);
  const more = await h.createAccount();
  const other = await admin.clocks.create({ frozenTime: FROZEN, accountIds: [more.id] });
  const seen: string[] = [];
  for await (const clock of admin.clocks.list({ pageSize: 1 })) seen.push(clock.id);
  expect(seen).toEqual(expect.arrayContaining([made.id, other.id]));
  expect((await client.clocks.list()).data.map((c) => c.id)).toEqual([made.id]);
  expect(((await client.clocks.get(other.id).catch((e: unknown) => e)) as PixApiError).status).toBe(404);

  await client.clocks.delete(made.id);
  expect(((await admin.clocks.get(made.id).catch((e: unknown) => e)) as PixApiError).status).toBe(404);
});
