import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES, type Scope } from '../../src/services/auth/scopes.ts';
import { startHarness, type Harness } from '../harness.ts';

/**
 * Decisions 4.13: the scope each route needs (documented in docs/decisions.md, "Scopes per route").
 * A token with every other scope answers 403 naming the scope; a token with only that scope passes
 * the guard and gets the route's own answer (`reached`), never a 5xx.
 */
const ROUTES: Array<{ scope: Scope; method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; template: string; family: 'api' | 'bacen';
  /** The route's own answer once past the guard: data, its 404 for an unknown id, or its 400 naming a body field. */
  reached: number }> = [
  { scope: 'pix:read', method: 'GET', url: '/api/transactions', template: '/api/transactions', family: 'api', reached: 200 },
  { scope: 'pix:read', method: 'GET', url: '/api/pix/transaction/1', template: '/api/pix/transaction/{id}', family: 'api', reached: 404 },
  { scope: 'pix:read', method: 'GET', url: '/api/med', template: '/api/med', family: 'api', reached: 200 },
  { scope: 'pix:read', method: 'GET', url: '/cob/scopeTxid000000000000000001', template: '/cob/{txid}', family: 'bacen', reached: 404 },
  { scope: 'pix:read', method: 'GET', url: '/dict/pix/1', template: '/dict/pix/{id}', family: 'bacen', reached: 404 },
  { scope: 'pix:read', method: 'GET', url: '/pix/E00000000202611201500abcdefghijk/devolucao/d1', template: '/pix/{e2eid}/devolucao/{id}', family: 'bacen', reached: 404 },
  { scope: 'pix:write', method: 'POST', url: '/api/pix/cash-in', template: '/api/pix/cash-in', family: 'api', reached: 400 },
  { scope: 'pix:write', method: 'POST', url: '/api/pix/cash-out', template: '/api/pix/cash-out', family: 'api', reached: 400 },
  { scope: 'pix:write', method: 'POST', url: '/api/pix/cash-out-qrcode', template: '/api/pix/cash-out-qrcode', family: 'api', reached: 400 },
  { scope: 'pix:write', method: 'POST', url: '/api/pix/refund-in/1', template: '/api/pix/refund-in/{id}', family: 'api', reached: 400 },
  { scope: 'pix:write', method: 'PUT', url: '/cob/scopeTxid000000000000000001', template: '/cob/{txid}', family: 'bacen', reached: 400 },
  { scope: 'pix:write', method: 'PATCH', url: '/cob/scopeTxid000000000000000001', template: '/cob/{txid}', family: 'bacen', reached: 400 },
  { scope: 'pix:write', method: 'POST', url: '/dict/pix', template: '/dict/pix', family: 'bacen', reached: 400 },
  { scope: 'pix:write', method: 'PUT', url: '/pix/E00000000202611201500abcdefghijk/devolucao/d1', template: '/pix/{e2eid}/devolucao/{id}', family: 'bacen', reached: 400 },
  { scope: 'balance:read', method: 'GET', url: '/api/balance', template: '/api/balance', family: 'api', reached: 200 },
  { scope: 'balance:read', method: 'GET', url: '/accounts/balances', template: '/accounts/balances', family: 'bacen', reached: 200 },
  { scope: 'webhook:read', method: 'GET', url: '/api/webhooks', template: '/api/webhooks', family: 'api', reached: 200 },
  { scope: 'webhook:write', method: 'POST', url: '/api/webhooks', template: '/api/webhooks', family: 'api', reached: 200 },
  { scope: 'webhook:write', method: 'DELETE', url: '/api/webhooks/1', template: '/api/webhooks/{id}', family: 'api', reached: 404 },
  { scope: 'webhook:read', method: 'GET', url: '/api/events', template: '/api/events', family: 'api', reached: 200 },
  { scope: 'webhook:read', method: 'GET', url: '/api/events/msg_unknown', template: '/api/events/{id}', family: 'api', reached: 404 },
  // The stream's own refusal of an unknown type (an open stream would never end an inject).
  { scope: 'webhook:read', method: 'GET', url: '/api/events/stream?type=nope', template: '/api/events/stream', family: 'api', reached: 400 },
  { scope: 'webhook:write', method: 'POST', url: '/api/webhook-deliveries/replay', template: '/api/webhook-deliveries/replay', family: 'api', reached: 400 },
  { scope: 'webhook:write', method: 'POST', url: '/api/resend-webhook/1', template: '/api/resend-webhook/{transactionIdentifier}', family: 'api', reached: 404 },
];

let h: Harness;
const allBut = new Map<Scope, string>();
const only = new Map<Scope, string>();
beforeAll(async () => {
  h = await startHarness();
  const account = await h.createAccount();
  for (const scope of ALL_SCOPES) {
    allBut.set(scope, await h.tokenFor(account.id, ALL_SCOPES.filter((s) => s !== scope)));
    only.set(scope, await h.tokenFor(account.id, [scope]));
  }
});
afterAll(() => h.close());

describe('scopes per route (decisions 4.13)', () => {
  it('the table is every bearer route, and the OpenAPI document states each route\'s scope', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, { security?: Array<Record<string, string[]>> }>>(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const bearer = operation.security?.find((s) => 'bearer' in s)?.bearer;
        // Sandbox routes take any account token ({bearer: []}): no scope to state.
        if (bearer?.length) documented.push(`${method.toUpperCase()} ${path} ${bearer.join(' ')}`);
      }
    }
    const expected = ROUTES.map((r) => `${r.method} ${r.template} ${r.scope}`);
    expect(documented.sort()).toEqual(expected.sort());
  });

  for (const route of ROUTES) {
    it(`${route.method} ${route.url} needs ${route.scope}`, async () => {
      const refused = await h.api(route.method, route.url, allBut.get(route.scope)!, route.method === 'GET' ? undefined : {});
      expect(refused.statusCode, refused.body).toBe(403);
      if (route.family === 'api') {
        expect(refused.json()).toMatchObject({ statusCode: 403, code: 'HTTP_ERROR', error: 'Forbidden', details: { requiredScope: route.scope }, userMessage: expect.any(String), errorId: expect.any(String) });
      } else {
        expect(refused.json()).toEqual({ statusCode: 403, message: `This route needs the scope ${route.scope}`, error: 'Forbidden' });
      }
      const allowed = await h.api(route.method, route.url, only.get(route.scope)!, route.method === 'GET' ? undefined : {});
      expect(allowed.statusCode, `${route.method} ${route.url}: ${allowed.body}`).toBe(route.reached);
      if (route.reached === 400 && route.method !== 'GET') expect(JSON.stringify(allowed.json().message)).toMatch(/is required/);
    });
  }
});
