import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const register = (accountId: number, body: Record<string, unknown>) => h.admin('POST', `/admin/accounts/${accountId}/webhooks`, body);

describe('admin webhook registrations', () => {
  it('registers up to 3 active URLs per event and refuses a 4th; other events have their own 3', async () => {
    const { id } = await h.createAccount();
    for (const n of [1, 2, 3]) {
      const res = await register(id, { eventType: 'cash_in', url: `https://hooks.example.com/in/${n}` });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ id: expect.any(Number), type: 'cash_in', url: `https://hooks.example.com/in/${n}`, headers: {}, isActive: true, version: 1 });
    }
    const fourth = await register(id, { eventType: 'cash_in', url: 'https://hooks.example.com/in/4' });
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json()).toEqual({ statusCode: 400, message: expect.stringContaining('3 active'), error: 'Bad Request' });
    expect((await register(id, { eventType: 'cash_out', url: 'https://hooks.example.com/in/4' })).statusCode).toBe(201);
    const list = (await h.admin('GET', `/admin/accounts/${id}/webhooks`)).json();
    expect(list.metadata.total).toBe(4);
    expect(list.data.map((w: { url: string }) => w.url)).toEqual([
      'https://hooks.example.com/in/1',
      'https://hooks.example.com/in/2',
      'https://hooks.example.com/in/3',
      'https://hooks.example.com/in/4',
    ]);
  });

  it('re-registering a URL updates its headers and version only, even when the event is full', async () => {
    const { id } = await h.createAccount();
    const first = (await register(id, { eventType: 'refund_in', url: 'https://a.example.com/x', headers: [{ key: 'X-Token', value: 'one' }] })).json();
    await register(id, { eventType: 'refund_in', url: 'https://b.example.com/x' });
    await register(id, { eventType: 'refund_in', url: 'https://c.example.com/x' });
    const again = await register(id, { eventType: 'refund_in', url: 'https://a.example.com/x', headers: [{ key: 'X-Token', value: 'two' }] });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ id: first.id, version: 2, headers: { 'X-Token': 'two' }, createdAt: first.createdAt, isActive: true });
    const list = (await h.admin('GET', `/admin/accounts/${id}/webhooks`)).json();
    expect(list.metadata.total).toBe(3);
    expect(list.data.filter((w: { url: string }) => w.url !== 'https://a.example.com/x').every((w: { version: number }) => w.version === 1)).toBe(true);
  });

  it('refuses blocked header names in any case, webhook-* names, duplicates and more than 5 headers', async () => {
    const { id } = await h.createAccount();
    for (const key of ['Host', 'content-length', 'Connection', 'TRANSFER-ENCODING', 'Content-Type', 'user-agent', 'webhook-signature', 'Webhook-Id']) {
      const res = await register(id, { eventType: 'cash_in', url: 'https://h.example.com/', headers: [{ key, value: 'v' }] });
      expect(res.statusCode, key).toBe(400);
      expect(res.json().message.join(' '), key).toMatch(/headers\[0\]\.key/);
    }
    const six = Array.from({ length: 6 }, (_, i) => ({ key: `X-H${i}`, value: 'v' }));
    const tooMany = await register(id, { eventType: 'cash_in', url: 'https://h.example.com/', headers: six });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toEqual(['headers must have at most 5 items']);
    const dup = await register(id, { eventType: 'cash_in', url: 'https://h.example.com/', headers: [{ key: 'X-A', value: '1' }, { key: 'x-a', value: '2' }] });
    expect(dup.statusCode).toBe(400);
    const crlf = await register(id, { eventType: 'cash_in', url: 'https://h.example.com/', headers: [{ key: 'X-A', value: 'a\r\nHost: evil' }] });
    expect(crlf.statusCode).toBe(400);
    const five = await register(id, { eventType: 'cash_in', url: 'https://h.example.com/', headers: six.slice(0, 5) });
    expect(five.statusCode).toBe(201);
    expect((await h.admin('GET', `/admin/accounts/${id}/webhooks`)).json().metadata.total).toBe(1);
  });

  it('requires HTTPS, accepting plain HTTP only to localhost and 127.0.0.1 in the sandbox', async () => {
    const { id } = await h.createAccount();
    for (const url of ['http://hooks.example.com/', 'ftp://hooks.example.com/', 'not a url', 'http://10.0.0.1/', 'https://user:pw@hooks.example.com/']) {
      const res = await register(id, { eventType: 'cash_out', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message[0], url).toMatch(/^url /);
    }
    expect((await register(id, { eventType: 'cash_out', url: 'http://localhost:8080/hook' })).statusCode).toBe(201);
    expect((await register(id, { eventType: 'cash_out', url: 'http://127.0.0.1:9/hook' })).statusCode).toBe(201);
  });

  it('refuses an unknown event type with the list of the 7 names', async () => {
    const { id } = await h.createAccount();
    const res = await register(id, { eventType: 'pix_in', url: 'https://h.example.com/' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(['eventType must be one of: cash_in, cash_out, refund_in, refund_out, med_created, med_accepted, med_rejected']);
  });

  it('deletes a registration (204), freeing its slot; unknown ids and accounts answer 404', async () => {
    const { id } = await h.createAccount();
    const ids: number[] = [];
    for (const n of [1, 2, 3]) ids.push((await register(id, { eventType: 'med_created', url: `https://m.example.com/${n}` })).json().id);
    expect((await h.admin('DELETE', `/admin/webhooks/${ids[0]}`)).statusCode).toBe(204);
    expect((await h.admin('DELETE', `/admin/webhooks/${ids[0]}`)).statusCode).toBe(404);
    expect((await h.admin('DELETE', '/admin/webhooks/999999')).statusCode).toBe(404);
    expect((await register(id, { eventType: 'med_created', url: 'https://m.example.com/4' })).statusCode).toBe(201);
    expect((await h.admin('GET', `/admin/accounts/${id}/webhooks`)).json().metadata.total).toBe(3);
    expect((await register(999999, { eventType: 'cash_in', url: 'https://m.example.com/' })).statusCode).toBe(404);
    expect((await h.admin('GET', '/admin/accounts/999999/webhooks')).statusCode).toBe(404);
  });

  it("answers the account's whsec_ signing secret, the same on every call", async () => {
    const { id } = await h.createAccount();
    const first = await h.admin('GET', `/admin/accounts/${id}/webhook-secret`);
    expect(first.statusCode).toBe(200);
    expect(first.json().secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await h.admin('GET', `/admin/accounts/${id}/webhook-secret`)).json()).toEqual(first.json());
    const other = await h.createAccount();
    expect((await h.admin('GET', `/admin/accounts/${other.id}/webhook-secret`)).json().secret).not.toBe(first.json().secret);
    expect((await h.admin('GET', '/admin/accounts/999999/webhook-secret')).statusCode).toBe(404);
  });

  it('documents the webhook routes in the OpenAPI document', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const route of ['/admin/accounts/{id}/webhooks', '/admin/webhooks/{id}', '/admin/accounts/{id}/webhook-secret', '/api/webhooks', '/api/resend-webhook/{transactionIdentifier}']) {
      expect(doc.paths[route], route).toBeDefined();
    }
  });

  it('needs the admin token', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/admin/accounts/1/webhooks' });
    expect(res.statusCode).toBe(401);
  });
});
