import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { providerEnv } from '../provider-env.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { MODE: 'production', ADMIN_TOKEN, TRUSTED_PROXIES: '127.0.0.1', ...providerEnv() } });
});
afterAll(() => h.close());

it('production mode has none of the test clock routes (404), nor in its OpenAPI document', async () => {
  const a = await h.createAccount();
  const token = await h.tokenFor(a.id);
  const id = '7b2c8a52-53a1-4b43-9b5e-2d4c1f7c0a11';
  const calls = [
    ['POST', '/sandbox/test-clocks', { frozenTime: '2027-01-01T00:00:00.000Z', accountIds: [a.id] }],
    ['GET', '/sandbox/test-clocks', undefined],
    ['GET', `/sandbox/test-clocks/${id}`, undefined],
    ['POST', `/sandbox/test-clocks/${id}/advance`, { to: '2027-02-01T00:00:00.000Z' }],
    ['DELETE', `/sandbox/test-clocks/${id}`, undefined],
  ] as const;
  for (const [method, url, body] of calls) {
    expect((await h.admin(method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    expect((await h.api(method, url, token, body)).statusCode, `${method} ${url}`).toBe(404);
  }
  expect(await h.c.db.selectFrom('test_clocks').select('id').execute()).toEqual([]);
  const paths = Object.keys((await h.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths);
  expect(paths.filter((p) => p.includes('test-clocks'))).toEqual([]);
  // Nothing asks the database for an account's clock in production.
  expect(await h.c.testClocks.scopeOf(a.id)).toBeUndefined();
});
