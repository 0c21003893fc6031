import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

describe('POST/GET /api/webhooks while disabled (the default)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('POST answers 200 success false and stores nothing, whatever the body', async () => {
    const { id } = await h.createAccount();
    const token = await h.tokenFor(id);
    for (const body of [{ eventType: 'cash_in', url: 'https://hooks.example.com/' }, { eventType: 'nope' }, {}]) {
      const res = await h.api('POST', '/api/webhooks', token, body);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: false, message: expect.stringContaining('disabled') });
    }
    expect((await h.admin('GET', `/admin/accounts/${id}/webhooks`)).json().metadata.total).toBe(0);
  });

  it('GET answers an empty list even when webhooks exist', async () => {
    const { id } = await h.createAccount();
    await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: 'https://hooks.example.com/' });
    const token = await h.tokenFor(id);
    const res = await h.api('GET', '/api/webhooks', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accountId: id, webhooks: [], total: 0 });
  });

  it('DELETE /api/webhooks/{id} answers 404 and removes nothing (the account sees no registration while disabled)', async () => {
    const { id } = await h.createAccount();
    await h.admin('POST', `/admin/accounts/${id}/webhooks`, { eventType: 'cash_in', url: 'https://hooks.example.com/' });
    const [hook] = (await h.admin('GET', `/admin/accounts/${id}/webhooks`)).json().data;
    const token = await h.tokenFor(id);
    const res = await h.api('DELETE', `/api/webhooks/${hook.id}`, token);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('WEBHOOK_NOT_FOUND');
    expect((await h.admin('GET', `/admin/accounts/${id}/webhooks`)).json().metadata.total).toBe(1);
  });

  it('still needs a token with the right scope', async () => {
    const { id } = await h.createAccount();
    expect((await h.app.inject({ method: 'GET', url: '/api/webhooks' })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'POST', url: '/api/webhooks', payload: {} })).statusCode).toBe(401);
    const readOnly = await h.tokenFor(id, ['webhook:read']);
    expect((await h.api('POST', '/api/webhooks', readOnly, {})).statusCode).toBe(403);
    const writeOnly = await h.tokenFor(id, ['webhook:write']);
    expect((await h.api('GET', '/api/webhooks', writeOnly)).statusCode).toBe(403);
  });
});

describe('POST/GET /api/webhooks with WEBHOOK_ROUTES_ENABLED=true', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { WEBHOOK_ROUTES_ENABLED: 'true' } });
  });
  afterAll(() => h.close());

  it("registers for the caller's account under the same rules, and lists only that account's webhooks", async () => {
    const { id } = await h.createAccount();
    const other = await h.createAccount();
    const token = await h.tokenFor(id);
    const res = await h.api('POST', '/api/webhooks', token, {
      eventType: 'cash_out',
      url: 'https://hooks.example.com/out',
      headers: [{ key: 'X-Secret', value: 's1' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Webhook registered.' });
    const again = await h.api('POST', '/api/webhooks', token, { eventType: 'cash_out', url: 'https://hooks.example.com/out', headers: [{ key: 'X-Secret', value: 's2' }] });
    expect(again.json()).toEqual({ success: true, message: expect.stringContaining('version') });
    await h.admin('POST', `/admin/accounts/${other.id}/webhooks`, { eventType: 'cash_out', url: 'https://other.example.com/' });

    const list = await h.api('GET', '/api/webhooks', token);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      accountId: id,
      total: 1,
      webhooks: [
        {
          id: expect.any(Number),
          type: 'cash_out',
          url: 'https://hooks.example.com/out',
          headers: { 'X-Secret': 's2' },
          isActive: true,
          version: 2,
          createdAt: h.clock.now().toISOString(),
          updatedAt: h.clock.now().toISOString(),
        },
      ],
    });
  });

  it('refuses a 4th active URL, a non-HTTPS URL, blocked headers and unknown events with 400 in the /api envelope', async () => {
    const { id } = await h.createAccount();
    const token = await h.tokenFor(id);
    for (const n of [1, 2, 3]) {
      expect((await h.api('POST', '/api/webhooks', token, { eventType: 'refund_out', url: `https://h.example.com/${n}` })).json().success).toBe(true);
    }
    const fourth = await h.api('POST', '/api/webhooks', token, { eventType: 'refund_out', url: 'https://h.example.com/4' });
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json()).toMatchObject({ code: 'WEBHOOK_URL_LIMIT_REACHED', errorCode: 'WEBHOOK_URL_LIMIT_REACHED', path: '/api/webhooks', userMessage: expect.any(String) });
    const http = await h.api('POST', '/api/webhooks', token, { eventType: 'cash_in', url: 'http://h.example.com/' });
    expect(http.statusCode).toBe(400);
    expect(http.json()).toMatchObject({ code: 'HTTP_ERROR', message: [expect.stringMatching(/^url must use HTTPS/)] });
    const blocked = await h.api('POST', '/api/webhooks', token, { eventType: 'cash_in', url: 'https://h.example.com/', headers: [{ key: 'User-Agent', value: 'x' }] });
    expect(blocked.statusCode).toBe(400);
    const badEvent = await h.api('POST', '/api/webhooks', token, { eventType: 'CASH_IN', url: 'https://h.example.com/' });
    expect(badEvent.statusCode).toBe(400);
    expect(badEvent.json().message).toEqual([expect.stringContaining('eventType must be one of')]);
    expect((await h.api('GET', '/api/webhooks', token)).json().total).toBe(3);
  });
  it("DELETE /api/webhooks/{id} removes the caller's own registration (204, gone from its list); another account's id is 404 and stays", async () => {
    const { id } = await h.createAccount();
    const other = await h.createAccount();
    const token = await h.tokenFor(id);
    expect((await h.api('POST', '/api/webhooks', token, { eventType: 'cash_in', url: 'https://hooks.example.com/mine' })).statusCode).toBe(200);
    await h.admin('POST', `/admin/accounts/${other.id}/webhooks`, { eventType: 'cash_in', url: 'https://hooks.example.com/theirs' });
    const [mine] = (await h.api('GET', '/api/webhooks', token)).json().webhooks;
    const [theirs] = (await h.admin('GET', `/admin/accounts/${other.id}/webhooks`)).json().data;

    const foreign = await h.api('DELETE', `/api/webhooks/${theirs.id}`, token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('WEBHOOK_NOT_FOUND');
    expect((await h.admin('GET', `/admin/accounts/${other.id}/webhooks`)).json().metadata.total).toBe(1);

    const readOnly = await h.tokenFor(id, ['webhook:read']);
    expect((await h.api('DELETE', `/api/webhooks/${mine.id}`, readOnly)).statusCode).toBe(403);
    const removed = await h.api('DELETE', `/api/webhooks/${mine.id}`, token);
    expect(removed.statusCode).toBe(204);
    expect((await h.api('GET', '/api/webhooks', token)).json()).toMatchObject({ webhooks: [], total: 0 });
    expect((await h.api('DELETE', `/api/webhooks/${mine.id}`, token)).statusCode).toBe(404);
  });
});
