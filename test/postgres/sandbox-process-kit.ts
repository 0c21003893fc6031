import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpf } from '../factories.ts';
import { ADMIN, createOwnDatabase, startInstance, type Instance } from '../deployment/instances-kit.ts';

/**
 * The service as users start it (`src/main.ts`, a separate process; with WORKERS > 1 a primary and
 * its workers on one port) in sandbox mode on a database of its own, and an HTTP client for it:
 * accounts with their certificate-bound tokens, the admin API, and a side connection to the database.
 */
export async function startSandboxService(
  serverUrl: string,
  options: {
    workers: number;
    env?: Record<string, string>;
    /** More variables that name the service's own database (its URL on the server itself). */
    envFor?: (databaseUrl: string) => Record<string, string>;
    /** The service reaches its database through this local port (a TCP proxy of the test); the test itself does not. */
    throughPort?: number;
    /** The service's DATABASE_URL made from its database's URL (a multi-host URL through proxies, say). */
    urlFor?: (databaseUrl: string) => string;
  },
) {
  const db = await createOwnDatabase(serverUrl);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-sandbox-process-'));
  const serviceUrl = new URL(db.url);
  if (options.throughPort !== undefined) serviceUrl.host = `127.0.0.1:${options.throughPort}`;
  let service: Instance | undefined;
  try {
    service = await startInstance(`sandbox-w${options.workers}`, options.urlFor ? options.urlFor(db.url) : serviceUrl.toString(), {
      MODE: 'sandbox',
      WORKERS: String(options.workers),
      DATA_DIR: dataDir,
      ...options.env,
      ...options.envFor?.(db.url),
    });
    if (options.workers > 1) await until(() => service!.lines().some((l) => l.msg === `${options.workers} workers listening`), 90_000, 'the workers did not start');
  } catch (error) {
    await service?.stop();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const side = new pg.Client({ connectionString: db.url, application_name: 'pix-test-side' });
  await side.connect();
  const base = service.url;

  /** One request; `timeoutMs` bounds the wait (a hang is a failure, not a slow pass). */
  async function call(method: string, url: string, options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {}) {
    const started = performance.now();
    const res = await fetch(base + url, {
      method,
      headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, body: json, text, ms: performance.now() - started };
  }
  const admin = (method: string, url: string, body?: unknown) => call(method, url, { body, headers: { authorization: `Bearer ${ADMIN}` } });

  let seq = 0;
  /** A new account with a certificate-bound token, funded by a deposit from another bank when `funds` is given. */
  async function account(funds = 0) {
    seq += 1;
    const created = await admin('POST', '/admin/accounts', { name: `Conta Processo ${seq}`, document: cpf(700_000 + seq * 7919 + Math.floor(Math.random() * 1e5)) });
    if (created.status !== 201) throw new Error(`account: ${created.status} ${created.text}`);
    const id = created.body.id as number;
    const cert = await admin('POST', `/admin/accounts/${id}/certificates`, {});
    const creds = await admin('POST', `/admin/accounts/${id}/credentials`, {});
    if (cert.status !== 201 || creds.status !== 201) throw new Error(`account credentials: ${cert.status} ${creds.status}`);
    const certHeader = { 'x-ssl-client-cert': encodeURIComponent(cert.body.certificatePem) };
    const headers: Record<string, string> = { ...certHeader };
    /** A new access token (one that expired when the sandbox clock was advanced, say). */
    const renewToken = async () => {
      const token = await call('POST', '/api/auth/token', { body: { clientId: creds.body.clientId, clientSecret: creds.body.clientSecret }, headers: certHeader });
      if (token.status !== 201) throw new Error(`account token: ${token.status} ${token.text}`);
      headers.authorization = `Bearer ${token.body.access_token}`;
    };
    await renewToken();
    const acc = {
      renewToken,
      id,
      pixKey: created.body.pixKey as string,
      document: created.body.document as string,
      /** A call with the account's token (and certificate). */
      api: (method: string, url: string, body?: unknown, extra: Record<string, string> = {}, timeoutMs?: number) =>
        call(method, url, { body, headers: { ...headers, ...extra }, ...(timeoutMs !== undefined ? { timeoutMs } : {}) }),
      /** A PIX received from another bank (refundable, disputable by a MED). */
      async receive(amount: number) {
        const res = await admin('POST', '/sandbox/deposits', { accountId: id, amount, payer: { name: 'Pagador Externo', document: cpf(31_337), ispb: '60746948' } });
        if (res.status !== 201) throw new Error(`deposit: ${res.status} ${res.text}`);
        return res.body as { id: number; transactionId: string; endToEndId: string };
      },
    };
    if (funds > 0) await acc.receive(funds);
    return acc;
  }

  return {
    url: base,
    /** The service's own database (pg_stat_database counts per database). */
    databaseName: new URL(db.url).pathname.slice(1),
    /** Its URL on the server itself (not through a proxy). */
    databaseUrl: db.url,
    service,
    side,
    call,
    admin,
    account,
    /** A cash-out body (network, by e-mail key). */
    cashOut: (value: number) => ({ value, externalId: `proc-${randomUUID()}`, description: 'pagamento', details: { key: `destino${seq}@example.com`, keyType: 'EMAIL', name: 'Fulano de Tal', document: cpf(4242) } }),
    /** Stops the process (SIGTERM) and closes the side connection; the database stays (its statistics). */
    async stopProcess() {
      await side.end().catch(() => {});
      return service.stop();
    },
    /** Stops everything and drops the database. */
    async stop() {
      await side.end().catch(() => {});
      await service.stop();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type SandboxService = Awaited<ReturnType<typeof startSandboxService>>;

export async function until(condition: () => boolean | Promise<boolean>, withinMs: number, what: string) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`${what} (within ${withinMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
