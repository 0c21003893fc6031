import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { cashOutBody } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  // The injected requests come from 127.0.0.1: the front proxy whose X-SSL-Client-Cert production believes.
  h = await startHarness({ env: { MODE: 'production', ADMIN_TOKEN, TRUSTED_PROXIES: '127.0.0.1' } });
});
afterAll(() => h.close());

it('production refuses X-Sandbox-Scenario, and off-us payouts answer 500 with nothing stored', async () => {
  const a = await h.createAccount();
  const token = await h.tokenFor(a.id);
  const withHeader = await h.api('POST', '/api/pix/cash-out', token, cashOutBody(), { 'x-sandbox-scenario': 'success' });
  expect(withHeader.statusCode).toBe(400);
  expect(withHeader.json().message).toEqual(['X-Sandbox-Scenario header is only supported in sandbox mode']);
  const offUs = await h.api('POST', '/api/pix/cash-out', token, cashOutBody());
  expect(offUs.statusCode).toBe(500);
  expect(offUs.json().code).toBe('PROVIDER_UNAVAILABLE');
  expect(await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', a.id).execute()).toHaveLength(0);
  expect((await h.admin('POST', '/sandbox/dict/keys', {})).statusCode).toBe(404);
});
