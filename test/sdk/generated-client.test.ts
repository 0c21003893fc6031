import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { exportDocument } from '../../scripts/document.ts';
import { typesFromDocument } from '../../sdk/scripts/types-from-document.ts';
import type { components, paths } from '../../sdk/src/openapi.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';

type ApiError = components['schemas']['ApiError'];

describe('a client generated from /openapi.json (openapi-typescript + openapi-fetch)', () => {
  let h: Harness;
  let baseUrl: string;
  beforeAll(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => h.close());

  it('is generated from the current document (npm run sdk:types)', async () => {
    const committed = readFileSync(new URL('../../sdk/src/openapi.ts', import.meta.url), 'utf8');
    expect(committed === (await typesFromDocument(await exportDocument())), 'sdk/src/openapi.ts is out of date: run npm run sdk:types').toBe(true);
  }, 180_000); // building the document and generating the types is seconds of CPU: minutes on a loaded CI machine

  it('runs a full flow with typed answers and typed errors: token, charge, pay, read, refused payout', async () => {
    const account = await h.createAccount();
    const cert = (await h.admin('POST', `/admin/accounts/${account.id}/certificates`, {})).json();
    const creds = (await h.admin('POST', `/admin/accounts/${account.id}/credentials`, {})).json();
    const certificate = encodeURIComponent(cert.certificatePem);

    const anonymous = createClient<paths>({ baseUrl });
    const token = await anonymous.POST('/api/auth/token', {
      params: { header: { 'x-ssl-client-cert': certificate } },
      body: { clientId: creds.clientId, clientSecret: creds.clientSecret },
    });
    expect(token.response.status).toBe(201);
    const accessToken: string = token.data!.access_token;

    const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${accessToken}`, 'x-ssl-client-cert': certificate } });
    const charge = await client.POST('/api/pix/cash-in', {
      params: { header: { 'x-sandbox-scenario': 'pending' } },
      body: { transaction: { value: 150, description: 'Order 1042', externalId: 'order-1042' }, payer: { fullName: 'Maria da Silva', document: cpf(11) } },
    });
    expect(charge.error).toBeUndefined();
    expect(charge.data!.status).toBe('PENDING');
    expect(charge.data!.pixCode).toMatch(/^000201/);

    const paid = await client.POST('/sandbox/charges/{id}/pay', { params: { path: { id: charge.data!.transactionId } }, body: {} });
    expect(paid.response.status).toBe(200);
    await h.advance(5);

    const read = await client.GET('/api/pix/transaction/{id}', { params: { path: { id: charge.data!.transactionId } } });
    expect(read.data!.status).toBe('CONFIRMED');

    const refused = await client.POST('/api/pix/cash-out', {
      body: { value: 500, externalId: 'too-much', details: { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria da Silva', document: cpf(11) } },
    });
    // The error is typed by the document: the /api envelope, not `never`.
    expectTypeOf(refused.error).toEqualTypeOf<ApiError | undefined>();
    expect(refused.response.status).toBe(400);
    expect(refused.error!.code).toBe('PIX_INSUFFICIENT_BALANCE');
    expect(refused.error!.errorId).toBe(refused.response.headers.get('x-request-id'));
  });
});
