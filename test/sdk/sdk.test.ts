import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPixClient, createWebhooks, PixApiError, PixNetworkError, unwrap, WebhookVerificationError, type PixClientOptions } from '../../sdk/src/index.ts';
import { cpf } from '../factories.ts';
import { startHarness, type Harness } from '../harness.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { makeServerCertificate, writeKeyPair } from '../deployment/tls-kit.ts';

/**
 * The SDK against the real service listening on a port (PGlite here, PostgreSQL in the postgres
 * project), through a small proxy that can fail requests the way a network and a busy service do.
 */
describe('sdk/ against the running service', () => {
  let h: Harness;
  let serviceUrl: string;
  let proxy: Awaited<ReturnType<typeof startFaultyProxy>>;

  beforeAll(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    serviceUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    proxy = await startFaultyProxy(serviceUrl);
  });
  afterAll(async () => {
    await proxy.close();
    await h.close();
  });

  async function newClient(overrides: Partial<PixClientOptions> = {}, funds = 0) {
    const account = await h.createAccount(funds ? { funds } : {});
    const cert = (await h.admin('POST', `/admin/accounts/${account.id}/certificates`, {})).json();
    const creds = (await h.admin('POST', `/admin/accounts/${account.id}/credentials`, {})).json();
    const client = createPixClient({
      baseUrl: proxy.url,
      clientId: creds.clientId,
      clientSecret: creds.clientSecret,
      certificate: { cert: cert.certificatePem, key: cert.privateKeyPem },
      retry: { baseDelayMs: 5, maxDelayMs: 50 },
      ...overrides,
    });
    return { account, client };
  }

  it('gets a token with the certificate and runs a charge to CONFIRMED on both families', async () => {
    const { client } = await newClient();
    const charge = await unwrap(
      client.http.POST('/api/pix/cash-in', {
        params: { header: { 'x-sandbox-scenario': 'pending' } },
        body: { transaction: { value: 25.5, description: 'Pedido 7', externalId: 'sdk-1' }, payer: { fullName: 'Maria da Silva', document: cpf(3) } },
      }),
    );
    await unwrap(client.http.POST('/sandbox/charges/{id}/pay', { params: { path: { id: charge.transactionId } }, body: {} }));
    await h.advance(5);
    const tx = await unwrap(client.http.GET('/api/pix/transaction/{id}', { params: { path: { id: charge.transactionId } } }));
    expect(tx.status).toBe('CONFIRMED');

    const oauth = await newClient({ tokenEndpoint: 'oauth' });
    const cob = await unwrap(
      oauth.client.http.PUT('/cob/{txid}', {
        params: { path: { txid: 'sdkcob0000000000000000000001' } },
        body: { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: oauth.account.pixKey },
      }),
    );
    expect(cob.status).toBe('ATIVA');
  });

  it('throws typed errors with the spec\'s codes, for every family', async () => {
    const { client } = await newClient();
    const payout = client.http.POST('/api/pix/cash-out', {
      body: { value: 50, externalId: 'sdk-broke', details: { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria da Silva', document: cpf(4) } },
    });
    const error = await unwrap(payout).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PixApiError);
    expect(error).toMatchObject({ status: 400, code: 'PIX_INSUFFICIENT_BALANCE' });
    expect((error as PixApiError).requestId).toMatch(/[0-9a-f-]{36}/);

    const missing = await unwrap(client.http.GET('/cob/{txid}', { params: { path: { txid: 'sdkcob0000000000000000000404' } } })).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: 'HTTP_404' });

    const bad = createPixClient({ baseUrl: serviceUrl, clientId: '3f1c2b7e-8d4a-4c6f-9b2e-1a5d7c9e0f24', clientSecret: 'wrong-secret', certificate: { cert: 'x' }, tokenEndpoint: 'oauth' });
    const refused = await bad.accessToken().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PixApiError);
    expect((refused as PixApiError).status).toBe(400);
  });

  it('renews the token 30 s before it expires, once for every caller waiting', async () => {
    let now = Date.now();
    const { client } = await newClient({ now: () => now });
    const first = await client.accessToken();
    now += (1800 - 31) * 1000;
    expect(await client.accessToken()).toBe(first);
    now += 2000; // 29 s left: renew
    const renewed = await Promise.all(Array.from({ length: 5 }, () => client.accessToken()));
    expect(new Set(renewed).size).toBe(1);
    expect(renewed[0]).not.toBe(first);
  });

  it('retries safe requests on 503, 429 and a dropped connection; never a POST a repeat could act twice', async () => {
    const { client } = await newClient({}, 50);
    await client.accessToken();

    proxy.fail('GET', '/api/balance', [503, 429, 'drop']);
    const balance = await client.balance.get();
    expect(balance).toMatchObject({ netBalance: 50 });
    expect(proxy.seen('GET', '/api/balance')).toBe(4);

    // A refund without externalId: a repeat after a lost answer could refund twice, so the 503 is the answer.
    const received = await client.sandbox.deposits.create({ value: 20 });
    const refundPath = `/api/pix/refund-in/${received.transactionId}`;
    proxy.fail('POST', refundPath, [503]);
    const refused = await client.refunds.create(received.transactionId, { refundValue: 5 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 503 });
    expect(proxy.seen('POST', refundPath)).toBe(1);
    // The same refund with an externalId is retried through the 503.
    proxy.fail('POST', refundPath, [503]);
    const refund = await client.refunds.create(received.transactionId, { refundValue: 5, externalId: 'sdk-refund-1' });
    expect(refund).toMatchObject({ externalId: 'sdk-refund-1', refundValue: 5 });
    expect(proxy.seen('POST', refundPath)).toBe(2);

    proxy.fail('GET', '/api/balance', ['drop', 'drop', 'drop', 'drop']);
    await expect(client.balance.get()).rejects.toBeInstanceOf(PixNetworkError);
  });

  it('retries a payout through a busy service and a dropped connection (its externalId makes the repeat harmless): the money moves once', async () => {
    const { account, client } = await newClient({}, 100);
    const payout = { value: 30, externalId: 'sdk-payout-once', details: { key: 'destino@example.com', keyType: 'EMAIL' as const, name: 'Fulano de Tal', document: cpf(8) } };
    // The service acts, then the connection drops before the answer: the retry meets the duplicate,
    // which proves the first attempt went through, and the client answers with that payout.
    proxy.fail('POST', '/api/pix/cash-out', [503, 'drop-after']);
    const created = await client.cashOut.create(payout);
    expect(proxy.seen('POST', '/api/pix/cash-out')).toBe(3);
    const rows = await h.c.db.selectFrom('transactions').select(['transaction_id', 'original_amount']).where('account_id', '=', account.id).where('external_id', '=', 'sdk-payout-once').execute();
    expect(rows).toEqual([{ transaction_id: created.transactionId, original_amount: 3000 }]);
    expect(created).toMatchObject({ externalId: 'sdk-payout-once', status: 'PENDING' });
    expect(Date.parse(created.generateTime)).not.toBeNaN();
    expect((await client.balance.get()).netBalance).toBe(70);

    // The same externalId used again on purpose (no lost answer) is the service's refusal, as it said it.
    const reused = await client.cashOut.create(payout).catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(PixApiError);
    expect(reused).toMatchObject({ status: 400, code: 'PIX_DUPLICATE_EXTERNAL_ID' });
    expect((await client.balance.get()).netBalance).toBe(70);
  });

  it('does not retry a 400: one request, the typed error with status, code, message and request id', async () => {
    const { client } = await newClient();
    await client.accessToken();
    proxy.fail('POST', '/api/pix/cash-out', []);
    const error = await client.cashOut
      .create({ value: 50, externalId: 'sdk-broke-2', details: { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria da Silva', document: cpf(9) } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PixApiError);
    expect(error).toMatchObject({ status: 400, code: 'PIX_INSUFFICIENT_BALANCE' });
    expect((error as PixApiError).message).toMatch(/balance/i);
    expect((error as PixApiError).requestId).toMatch(/[0-9a-f-]{36}/);
    expect(proxy.seen('POST', '/api/pix/cash-out')).toBe(1);
  });

  it('pages with for await over every transaction (250, three pages of 100)', async () => {
    const { account, client } = await newClient();
    for (let i = 0; i < 250; i += 1) await h.deposit(account.id, 1 + (i % 7));
    proxy.fail('GET', '/api/transactions', []);
    const first = await client.transactions.list({ size: 100 });
    expect(first.data).toHaveLength(100);
    expect(first.metadata).toMatchObject({ total: 250, totalPages: 3 });
    const ids = new Set<string>();
    for await (const tx of client.transactions.list({ size: 100 })) ids.add(tx.transactionId);
    expect(ids.size).toBe(250);
    // One request for the awaited page, three for the loop.
    expect(proxy.seen('GET', '/api/transactions')).toBe(4);
    expect(await client.transactions.list({ size: 100, type: 'WITHDRAW' }).toArray()).toEqual([]);
    // 250 deposits first: seconds on a quiet machine, more when the suite shares it.
  }, 180_000);

  it('retries a POST that carries its idempotency key when the answer was lost: the service replays it, one transfer', async () => {
    const { account, client } = await newClient({}, 100);
    proxy.fail('POST', '/dict/pix', ['drop-after', 503]);
    const key = randomUUID();
    const transfer = await client.http.POST('/dict/pix', {
      params: { header: { 'x-idempotency-key': key } },
      body: { pixKey: 'destino@example.com', payment: { currency: 'BRL', amount: 10 } },
    });
    expect(transfer.response.status).toBe(201);
    expect(transfer.response.headers.get('idempotent-replayed')).toBe('true');
    expect(proxy.seen('POST', '/dict/pix')).toBe(3);
    const rows = await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', account.id).where('origin', '=', 'dict').execute();
    expect(rows).toEqual([{ id: transfer.data!.id }]);
  });

  it('adds an idempotency key to /dict/pix when none is given, so a lost answer is retried and replayed: one transfer', async () => {
    const { account, client } = await newClient({}, 100);
    proxy.fail('POST', '/dict/pix', ['drop-after']);
    const transfer = await client.dictPix.create({ pixKey: 'outro@example.com', payment: { currency: 'BRL', amount: 10 } });
    expect(proxy.seen('POST', '/dict/pix')).toBe(2);
    const rows = await h.c.db.selectFrom('transactions').select('id').where('account_id', '=', account.id).where('origin', '=', 'dict').execute();
    expect(rows).toEqual([{ id: transfer.id }]);
  });

  it('waits what Retry-After asks before retrying (capped by maxDelayMs)', async () => {
    const { client } = await newClient({ retry: { baseDelayMs: 5, maxDelayMs: 5_000 } });
    await client.accessToken();
    proxy.fail('GET', '/api/balance', [{ status: 429, retryAfter: '1' }]);
    const started = Date.now();
    expect(await unwrap(client.http.GET('/api/balance'))).toMatchObject({ netBalance: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(proxy.seen('GET', '/api/balance')).toBe(2);
  });

  it('verifies webhook signatures: the event when genuine, an error when the body was changed', async () => {
    const rx = await startReceiver();
    try {
      const { account, client } = await newClient();
      const secret = (await h.admin('GET', `/admin/accounts/${account.id}/webhook-secret`)).json().secret as string;
      const verifying = { webhooks: createWebhooks(secret) };
      expect((await h.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: 'cash_in', url: rx.url('/hooks') })).statusCode).toBe(201);
      const charge = await unwrap(
        client.http.POST('/api/pix/cash-in', {
          params: { header: { 'x-sandbox-scenario': 'pending' } },
          body: { transaction: { value: 12, description: 'Pedido 9', externalId: 'sdk-hook' }, payer: { fullName: 'Maria da Silva', document: cpf(6) } },
        }),
      );
      await unwrap(client.http.POST('/sandbox/charges/{id}/pay', { params: { path: { id: charge.transactionId } }, body: {} }));
      await h.advance(5);
      await h.deliverWebhooks();
      const [delivery] = rx.to('/hooks');
      const event = verifying.webhooks.verify(delivery!.body, delivery!.headers as Record<string, string>);
      expect(event).toMatchObject({ event: 'CashIn', transactionId: charge.transactionId, status: 'CONFIRMED' });
      expect(() => verifying.webhooks.verify(delivery!.body.replace('12', '13'), delivery!.headers as Record<string, string>)).toThrow(WebhookVerificationError);
    } finally {
      await rx.close();
    }
  });
});

describe('sdk/ over mutual TLS to the service itself (TLS_CLIENT_AUTH=optional)', () => {
  let h: Harness;
  let baseUrl: string;
  let serverPem: string;
  let files: ReturnType<typeof writeKeyPair>;
  beforeAll(async () => {
    const server = await makeServerCertificate();
    serverPem = server.certPem;
    files = writeKeyPair(server);
    h = await startHarness({ env: { TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile, TLS_CLIENT_AUTH: 'optional' } });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `https://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await h.close();
    rmSync(files.dir, { recursive: true, force: true });
  });

  it('presents the certificate on the handshake (no header: this service believes none), gets a token and runs a charge', async () => {
    const account = await h.createAccount();
    const cert = (await h.admin('POST', `/admin/accounts/${account.id}/certificates`, {})).json();
    const creds = (await h.admin('POST', `/admin/accounts/${account.id}/credentials`, {})).json();
    const options: PixClientOptions = {
      baseUrl,
      clientId: creds.clientId,
      clientSecret: creds.clientSecret,
      certificate: { cert: cert.certificatePem, key: cert.privateKeyPem },
      ca: serverPem,
      retry: { maxRetries: 0 },
    };
    const client = createPixClient(options);
    const charge = await unwrap(
      client.http.POST('/api/pix/cash-in', {
        body: { transaction: { value: 30, description: 'Pedido TLS', externalId: 'sdk-tls' }, payer: { fullName: 'Maria da Silva', document: cpf(7) } },
      }),
    );
    const read = await unwrap(client.http.GET('/api/pix/transaction/{id}', { params: { path: { id: charge.transactionId } } }));
    expect(read).toMatchObject({ externalId: 'sdk-tls', originalAmount: 30, status: 'PENDING' });
    // The same client without `ca` refuses the self-signed server certificate.
    const { ca: _ca, ...untrusting } = options;
    await expect(createPixClient(untrusting).accessToken()).rejects.toBeInstanceOf(PixNetworkError);
  });
});

/**
 * What the proxy does to one request: answer that status itself (Retry-After 0, or the one given),
 * drop the connection before the service sees it, or after the service answered (`drop-after`).
 */
type Fault = number | { status: number; retryAfter: string } | 'drop' | 'drop-after';

/** An HTTP proxy to the service that answers the next requests of a route with failures first. */
async function startFaultyProxy(target: string) {
  const plans = new Map<string, Fault[]>();
  const counts = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    const key = `${req.method} ${req.url!.split('?')[0]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const fault = plans.get(key)?.shift();
    if (fault === 'drop') return req.socket.destroy();
    if (typeof fault === 'number' || typeof fault === 'object') {
      const status = typeof fault === 'number' ? fault : fault.status;
      res.writeHead(status, { 'content-type': 'application/json', 'retry-after': typeof fault === 'number' ? '0' : fault.retryAfter });
      return res.end(JSON.stringify({ statusCode: status, timestamp: new Date().toISOString(), path: req.url, method: req.method, code: 'HTTP_ERROR', message: 'busy', userMessage: 'busy', errorId: 'proxy', error: 'busy' }));
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection' && k !== 'content-length')) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, { method: req.method!, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    // The service acted, and its answer is lost on the way back.
    if (fault === 'drop-after') {
      await answer.arrayBuffer();
      return req.socket.destroy();
    }
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding')));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  server.keepAliveTimeout = 500;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fail(method: string, path: string, faults: Fault[]) {
      plans.set(`${method} ${path}`, [...faults]);
      counts.set(`${method} ${path}`, 0);
    },
    seen: (method: string, path: string) => counts.get(`${method} ${path}`) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
