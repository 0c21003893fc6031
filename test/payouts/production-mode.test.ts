import { afterAll, beforeAll, expect, it } from 'vitest';
import { cents } from '../../src/domain/money.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../harness.ts';
import { providerEnv } from '../provider-env.ts';
import { cpf } from '../factories.ts';
import { cashOutBody, txRow } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  // The injected requests come from 127.0.0.1: the front proxy whose X-SSL-Client-Cert production believes.
  // The provider is configured but nothing listens there: it cannot be reached.
  h = await startHarness({ env: { MODE: 'production', ADMIN_TOKEN, TRUSTED_PROXIES: '127.0.0.1', ...providerEnv() } });
});
afterAll(() => h.close());

it('production refuses X-Sandbox-Scenario and has no sandbox routes', async () => {
  const a = await h.createAccount();
  const token = await h.tokenFor(a.id);
  const withHeader = await h.api('POST', '/api/pix/cash-out', token, cashOutBody(), { 'x-sandbox-scenario': 'success' });
  expect(withHeader.statusCode).toBe(400);
  expect(withHeader.json().message).toEqual(['X-Sandbox-Scenario header is only supported in sandbox mode']);
  expect((await h.admin('POST', '/sandbox/dict/keys', {})).statusCode).toBe(404);
});

it('with the provider unreachable, an off-us payout is admitted and stays PENDING with its money held: never a 500', async () => {
  const a = await h.createAccount();
  // Production has no sandbox deposits: the account's money arrives as a received PIX would.
  await h.c.deposits.deposit(a.id, cents(5000), undefined, undefined, 'network:provider');
  const token = await h.tokenFor(a.id);
  const res = await h.api('POST', '/api/pix/cash-out', token, cashOutBody({ value: 12 }));
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().status).toBe('PENDING');
  await h.runJobs(); // the submit step: connection refused, retried, then "unknown": asked again later
  const row = await txRow(h, res.json().transactionId);
  expect(row.status).toBe('PENDING');
  expect(await h.balance(a.id)).toEqual({ available: 38, blocked: 12 });
  const check = await h.c.db.selectFrom('jobs').select(['kind', 'run_at']).where('kind', '=', 'payment.check').execute();
  expect(check).toHaveLength(1);
  expect(check[0]!.run_at.getTime()).toBeGreaterThan(h.clock.now().getTime());
});

it('with the provider unreachable, a charge answers 500 PROVIDER_UNAVAILABLE and nothing is stored', async () => {
  const a = await h.createAccount();
  const token = await h.tokenFor(a.id);
  const res = await h.api('POST', '/api/pix/cash-in', token, {
    transaction: { value: 10, description: 'Pedido', externalId: 'pedido-1' },
    payer: { fullName: 'Cliente', document: cpf(77) },
  });
  expect(res.statusCode, res.body).toBe(500);
  expect(res.json().code).toBe('PROVIDER_UNAVAILABLE');
  expect(await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', a.id).execute()).toHaveLength(0);
});
