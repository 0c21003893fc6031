import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { cnpj, cpf } from '../factories.ts';
import { asAdmin, call, freePort, startInstance, type Instance } from '../deployment/instances-kit.ts';

/**
 * Issue 13's two-instance set-up on real PostgreSQL, each in its own database: B, this service in
 * sandbox mode with WEBHOOK_ROUTES_ENABLED=true, plays the upstream provider; A, in production mode,
 * reaches B through the provider adapter. The pooled account is an account made at B through B's
 * admin API; A's PROVIDER_* credentials are made for it there, and A's PROVIDER_WEBHOOK_SECRET is
 * that account's webhook secret. Between them, two small HTTP relays the tests control: `gate`
 * carries B's notices to A (it can drop them, and keeps a copy of each for replays), `upstream`
 * carries A's calls to B (it can kill A right after B took a payment).
 */

export const toCents = (brl: number) => Math.round(brl * 100);

/** A database of its own on the test server, named for this suite so a leftover is easy to tell. */
async function createOwnDatabase(serverUrl: string) {
  const name = `pix_provider_e2e_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, application_name: 'provider-e2e' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl, application_name: 'provider-e2e' });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, withinMs = 60_000, everyMs = 250): Promise<T> {
  const until = Date.now() + withinMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A recorded request the gate carried to A. */
export interface Carried {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** An HTTP relay in front of `target()`; `intercept` may answer instead, or act after the target answered. */
async function relay(
  port: number,
  target: () => string,
  hooks: {
    before?(req: { method: string; url: string; headers: Record<string, string>; body: string }): { status: number; body: string } | undefined;
    after?(req: { method: string; url: string; body: string }, answer: { status: number; body: string }): Promise<void> | void;
  },
) {
  const server = http.createServer((req, res) => {
    res.on('error', () => {}); // a client that died meanwhile (A killed) is not the relay's failure
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers, body };
      try {
        const early = hooks.before?.(request);
        if (early) return void res.writeHead(early.status, { 'content-type': 'application/json' }).end(early.body);
        const answer = await fetch(target() + request.url, { method: request.method, headers, ...(body !== '' ? { body } : {}), signal: AbortSignal.timeout(20_000) });
        const text = await answer.text();
        await hooks.after?.(request, { status: answer.status, body: text });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
      } catch {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface World {
  a: Instance;
  b: Instance;
  aEnv: Record<string, string>;
  bEnv: Record<string, string>;
  pool: { id: number; pixKey: string };
  webhookSecret: string;
  /** B's notices on their way to A: `drop` answers 200 for A and carries nothing. */
  gate: { url: string; mode: 'pass' | 'drop'; carried: Carried[]; dropped: number };
  /** A's calls on their way to B: `killAOnCashOut` kills A right after B took the next cash-out. */
  upstream: { url: string; requests: Array<{ method: string; url: string; body: string; status: number }>; killAOnCashOut: boolean };
  dbA: pg.Client;
  dbB: pg.Client;
  startA(overrides?: Record<string, string>): Promise<Instance>;
  startB(): Promise<Instance>;
  close(): Promise<void>;
}

export async function startWorld(options: { reconcileAfterS: string }): Promise<World> {
  const server = process.env.TEST_DATABASE_URL!;
  const [databaseA, databaseB] = await Promise.all([createOwnDatabase(server), createOwnDatabase(server)]);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-provider-'));
  const undo: Array<() => Promise<unknown>> = [() => databaseA.drop(), () => databaseB.drop(), async () => rmSync(dataDir, { recursive: true, force: true })];
  try {
    return await build();
  } catch (error) {
    // Nothing of a failed start is left behind: processes stopped, relays closed, databases dropped.
    for (const step of undo.reverse()) await step().catch(() => {});
    throw error;
  }

  async function build(): Promise<World> {
    const [portA, portB] = [await freePort(), await freePort()];
    const bEnv = { MODE: 'sandbox', WEBHOOK_ROUTES_ENABLED: 'true', SANDBOX_SETTLEMENT_DELAY_MS: '300', PORT: String(portB), DATA_DIR: path.join(dataDir, 'b'), LOG_LEVEL: 'info' };
    let b = await startInstance('B', databaseB.url, bEnv);
    undo.push(() => b.stop());

    // The pooled account at B: a company account, its client certificate, credentials and webhook secret.
    const account = await call(b.url, 'POST', '/admin/accounts', { name: 'Fintech Conta Bolsão', document: cnpj(42), type: 'COMPANY' }, asAdmin);
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const pool = { id: account.body.id as number, pixKey: account.body.pixKey as string };
    const cert = await call(b.url, 'POST', `/admin/accounts/${pool.id}/certificates`, {}, asAdmin);
    expect(cert.status).toBe(201);
    const creds = await call(b.url, 'POST', `/admin/accounts/${pool.id}/credentials`, {}, asAdmin);
    expect(creds.status).toBe(201);
    const secret = await call(b.url, 'GET', `/admin/accounts/${pool.id}/webhook-secret`, undefined, asAdmin);
    expect(secret.body.secret).toMatch(/^whsec_/);
    const certFile = path.join(dataDir, 'provider-client-cert.pem');
    const keyFile = path.join(dataDir, 'provider-client-key.pem');
    writeFileSync(certFile, cert.body.certificatePem);
    writeFileSync(keyFile, cert.body.privateKeyPem);

    const world = {} as World;
    const gate = await relay(0, () => world.a.url, {
      before(req) {
        if (world.gate.mode === 'drop') {
          world.gate.dropped += 1;
          return { status: 200, body: '{"received":true}' };
        }
        world.gate.carried.push({ path: req.url, headers: req.headers, body: req.body });
        return undefined;
      },
    });
    const upstream = await relay(0, () => world.b.url, {
      async after(req, answer) {
        world.upstream.requests.push({ method: req.method, url: req.url, body: req.body, status: answer.status });
        if (world.upstream.killAOnCashOut && req.method === 'POST' && req.url === '/api/pix/cash-out') {
          world.upstream.killAOnCashOut = false;
          // B took the payment; A dies before it hears so (kill -9: nothing recorded).
          const exited = new Promise((resolve) => world.a.process.once('exit', resolve));
          world.a.process.kill('SIGKILL');
          await exited;
        }
      },
    });
    undo.push(() => gate.close(), () => upstream.close());

    const aEnv: Record<string, string> = {
      MODE: 'production',
      PORT: String(portA),
      LOG_LEVEL: 'info',
      // The customers' client certificates come from the local "TLS proxy" (the test).
      TRUSTED_PROXIES: '127.0.0.1',
      PIX_NETWORK: 'provider',
      PROVIDER_URL: upstream.url,
      PROVIDER_CLIENT_ID: creds.body.clientId,
      PROVIDER_CLIENT_SECRET: creds.body.clientSecret,
      PROVIDER_CERT_FILE: certFile,
      PROVIDER_KEY_FILE: keyFile,
      // B is plain HTTP in front of nothing: the certificate travels in X-SSL-Client-Cert.
      PROVIDER_CERT_HEADER: 'true',
      PROVIDER_WEBHOOK_SECRET: secret.body.secret,
      PUBLIC_URL: gate.url,
      PROVIDER_RECONCILE_AFTER_S: options.reconcileAfterS,
    };
    const dbA = new pg.Client({ connectionString: databaseA.url, application_name: 'provider-e2e' });
    const dbB = new pg.Client({ connectionString: databaseB.url, application_name: 'provider-e2e' });
    await Promise.all([dbA.connect(), dbB.connect()]);
    undo.push(() => dbA.end(), () => dbB.end());

    Object.assign(world, {
      b,
      aEnv,
      bEnv,
      pool,
      webhookSecret: secret.body.secret,
      gate: { url: gate.url, mode: 'pass', carried: [], dropped: 0 },
      upstream: { url: upstream.url, requests: [], killAOnCashOut: false },
      dbA,
      dbB,
      async startA(overrides: Record<string, string> = {}) {
        world.a = await startInstance('A', databaseA.url, { ...aEnv, ...overrides });
        return world.a;
      },
      async startB() {
        b = await startInstance('B', databaseB.url, bEnv);
        world.b = b;
        return b;
      },
      async close() {
        await Promise.all([world.a?.stop(), world.b?.stop()]);
        await Promise.all([gate.close(), upstream.close()]);
        await Promise.all([dbA.end(), dbB.end()]);
        await Promise.all([databaseA.drop(), databaseB.drop()]);
        rmSync(dataDir, { recursive: true, force: true });
      },
    } satisfies Omit<World, 'a'>);
    undo.push(async () => world.a?.stop());
    await world.startA();
    return world;
  }
}

/** A customer of A: an account, a certificate, credentials and a token (the certificate travels with every call). */
export async function customerOfA(w: World, i: number) {
  const account = await call(w.a.url, 'POST', '/admin/accounts', { name: `Cliente ${i}`, document: cpf(5100 + i) }, asAdmin);
  expect(account.status, JSON.stringify(account.body)).toBe(201);
  const id = account.body.id as number;
  const cert = await call(w.a.url, 'POST', `/admin/accounts/${id}/certificates`, {}, asAdmin);
  const creds = await call(w.a.url, 'POST', `/admin/accounts/${id}/credentials`, {}, asAdmin);
  const header = encodeURIComponent(cert.body.certificatePem);
  const credentials = { clientId: creds.body.clientId, clientSecret: creds.body.clientSecret };
  const customer = {
    id,
    headers: {} as Record<string, string>,
    async login() {
      const token = await call(w.a.url, 'POST', '/api/auth/token', credentials, { 'x-ssl-client-cert': header });
      expect(token.status, JSON.stringify(token.body)).toBe(201);
      customer.headers = { authorization: `Bearer ${token.body.access_token}`, 'x-ssl-client-cert': header };
    },
    api: (method: string, url: string, body?: unknown) => call(w.a.url, method, url, body, customer.headers),
  };
  await customer.login();
  return customer;
}

/** Cents held for A's customers (every account, available + blocked), at B's pooled account, and in A's suspense. */
export async function books(w: World) {
  const customers = await w.dbA.query<{ total: string }>('SELECT COALESCE(SUM(available + blocked), 0) AS total FROM accounts');
  const pool = await call(w.b.url, 'GET', `/admin/accounts/${w.pool.id}`, undefined, asAdmin);
  const status = await call(w.a.url, 'GET', '/admin/network/status', undefined, asAdmin);
  return {
    customers: Number(customers.rows[0]!.total),
    pool: toCents(pool.body.balance.available) + toCents(pool.body.balance.blocked),
    suspense: toCents(status.body.suspense.total),
  };
}

/** After each step: A's customers plus A's suspense hold exactly what B's pooled account holds, and A's ledger is green. */
export async function expectBooksAgree(w: World, expected: { customers: number; suspense?: number }) {
  const now = await books(w);
  expect(now).toEqual({ customers: expected.customers, pool: expected.customers + (expected.suspense ?? 0), suspense: expected.suspense ?? 0 });
  const ledger = await call(w.a.url, 'GET', '/admin/ledger/check', undefined, asAdmin);
  expect(ledger.status).toBe(200);
  expect(ledger.body.ok, JSON.stringify(ledger.body)).toBe(true);
}

export { asAdmin, call };
