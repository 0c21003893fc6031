import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted provider for in-process tests of the adapter (the real one, B, is in
 * test/postgres/provider-end-to-end.test.ts): it answers the routes the adapter uses from what the
 * test put in it, and records every request.
 */
export interface FakeProvider {
  url: string;
  requests: Array<{ method: string; path: string; body: any; headers: http.IncomingHttpHeaders }>;
  /** Polls by externalId (GET /api/pix/transaction/{id}). */
  transactions: Map<string, Record<string, unknown>>;
  balance: number;
  webhooksEnabled: boolean;
  /** The next cash-out's answer (default 201). */
  cashOutAnswer?: { status: number; body: unknown };
  close(): Promise<void>;
}

export async function startFakeProvider(): Promise<FakeProvider> {
  let seq = 0;
  const fake = { requests: [], transactions: new Map(), balance: 0, webhooksEnabled: true } as unknown as FakeProvider;
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = text ? JSON.parse(text) : undefined;
      fake.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, body, headers: req.headers });
      const send = (status: number, payload: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      const route = `${req.method} ${url.pathname}`;
      if (route === 'POST /api/auth/token') return send(201, { access_token: `fake-token-${++seq}`, token_type: 'Bearer', expires_in: 1800 });
      if (route === 'POST /api/webhooks') {
        return send(200, fake.webhooksEnabled ? { success: true, message: 'Webhook registered.' } : { success: false, message: 'Webhook registration through the API is temporarily disabled' });
      }
      if (route === 'POST /api/pix/cash-in') return send(201, { transactionId: `p-${++seq}`, externalId: body.transaction.externalId, status: 'PENDING', pixCode: `00020126fake${body.transaction.externalId}` });
      if (route === 'POST /api/pix/cash-out' || route === 'POST /api/pix/cash-out-qrcode') {
        const answer = fake.cashOutAnswer ?? { status: 201, body: { transactionId: `p-${++seq}`, externalId: body.externalId, status: 'PENDING' } };
        fake.cashOutAnswer = undefined;
        return send(answer.status, answer.body);
      }
      if (req.method === 'POST' && url.pathname.startsWith('/api/pix/refund-in/')) return send(201, { transactionId: `p-${++seq}`, externalId: body.externalId, status: 'PENDING' });
      if (req.method === 'GET' && url.pathname.startsWith('/api/pix/transaction/')) {
        const poll = fake.transactions.get(decodeURIComponent(url.pathname.slice('/api/pix/transaction/'.length)));
        return poll ? send(200, poll) : send(404, { statusCode: 404, code: 'NOT_FOUND', message: 'Transaction not found' });
      }
      if (route === 'GET /api/transactions') {
        const e2e = url.searchParams.get('endToEndId');
        const found = [...fake.transactions.values()].filter((t) => t.e2eId === e2e).map((t) => ({ transactionId: t.id, endToEndId: t.e2eId }));
        return send(200, { data: found, metadata: {} });
      }
      if (route === 'GET /api/balance') return send(200, { grossBalance: fake.balance, blockedBalance: 0, netBalance: fake.balance, consultedAt: new Date().toISOString() });
      send(404, { statusCode: 404, message: `no route ${route}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
