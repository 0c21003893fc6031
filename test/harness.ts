import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer, type Container, type ContainerOptions } from '../src/container.ts';
import { openDatabase, type DatabaseOptions } from '../src/db/database.ts';
import { AdjustableClock } from '../src/domain/clock.ts';
import type { HostResolver } from '../src/webhooks/host-resolver.ts';
import type { App } from '../src/http/app-types.ts';
import { cpf } from './factories.ts';
import { migratedSnapshot } from './pglite-snapshot.ts';

// Strong enough for production mode's ADMIN_TOKEN rule (32+ characters, 128+ bits).
export const ADMIN_TOKEN = 'test-admin-token-0123456789-QWERTYUIOPzxcv';
export const TEST_START = new Date('2026-11-20T15:00:00.000Z'); // 12:00 in São Paulo, a Friday

/** True when this run targets the real PostgreSQL (the "postgres" Vitest project). */
export const onPostgres = process.env.TEST_DB === 'postgres';

export interface HarnessOptions {
  /** Extra environment for loadConfig (e.g. WEBHOOK_ROUTES_ENABLED). */
  env?: Record<string, string>;
  start?: Date;
  /** false: `close` skips the ledger check (suites that break the ledger on purpose). */
  checkLedgerOnClose?: boolean;
  /** Resolves webhook host names (production registration) without DNS. */
  resolver?: HostResolver;
  /** PostgreSQL only: connection settings over the defaults (a proxy's URL, timeouts, pool size, name). */
  postgres?: { url?: string } & Pick<DatabaseOptions, 'timeouts' | 'applicationName' | 'poolSize'>;
  /** Wraps the network the services talk to (fault injection). */
  wrapNetwork?: ContainerOptions['wrapNetwork'];
  /** Production-mode tests that deliver webhooks to a local receiver (ContainerOptions.webhookRules). */
  webhookRules?: ContainerOptions['webhookRules'];
}

/**
 * The app on a fresh database (in-memory PGlite, or a private schema of TEST_DATABASE_URL) with a
 * frozen clock: time moves only through `advance`, which then runs what fell due.
 */
export async function startHarness(options: HarnessOptions = {}) {
  const clock = new AdjustableClock({ start: options.start ?? TEST_START, frozen: true });
  const logLines: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  );
  const schema = onPostgres ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const database = onPostgres
    ? await openDatabase({ dataDir: 'memory://', schema, poolSize: 20, ...options.postgres, databaseUrl: options.postgres?.url ?? requirePgUrl(), logger })
    : await openDatabase({ dataDir: 'memory://', loadDataDir: await migratedSnapshot() });
  const config = loadConfig({
    MODE: 'sandbox',
    ADMIN_TOKEN,
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'info',
    SANDBOX_SETTLEMENT_DELAY_MS: '1000',
    // The harness opens the database itself (PGlite, or a schema of TEST_DATABASE_URL): production's
    // refusal to start on the embedded database without DATABASE_URL is about `npm start`, not this.
    ALLOW_EMBEDDED_DATABASE: 'true',
    ...options.env,
  });
  const c = await createContainer(config, {
    clock,
    database,
    logger,
    ...(options.resolver ? { resolver: options.resolver } : {}),
    ...(options.wrapNetwork ? { wrapNetwork: options.wrapNetwork } : {}),
    ...(options.webhookRules ? { webhookRules: options.webhookRules } : {}),
  });
  const app = await buildApp(c, { checkResponses: true });
  await app.ready();
  let seq = 0;
  const certificateOfToken = new Map<string, string>();
  const instances: Container[] = [];

  const h = {
    c,
    app,
    clock,
    logLines,
    /** Moves the clock and runs every job that fell due. */
    async advance(seconds: number) {
      clock.advance(seconds);
      const jobs = await c.scheduler.runDue();
      // Like POST /sandbox/clock/advance: the webhooks those jobs emitted, and retries now due.
      await c.webhookRelay.runDue();
      return jobs;
    },
    runJobs: () => c.scheduler.runDue(),
    /** Sends every webhook delivery due now (to real receivers); answers how many were handled. */
    deliverWebhooks: () => c.webhookRelay.runDue(),
    async admin(method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, body?: unknown) {
      return app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
    },
    /** A new account through the admin API, optionally funded by a sandbox deposit (BRL). */
    async createAccount(input: { name?: string; document?: string; type?: 'INDIVIDUAL' | 'COMPANY'; funds?: number } = {}) {
      seq += 1;
      const res = await h.admin('POST', '/admin/accounts', {
        name: input.name ?? `Conta Teste ${seq}`,
        document: input.document ?? cpf(seq * 7919 + Math.floor(Math.random() * 1e6)),
        ...(input.type ? { type: input.type } : {}),
      });
      if (res.statusCode !== 201) throw new Error(`createAccount: ${res.statusCode} ${res.body}`);
      const account = res.json() as { id: number; pixKey: string; name: string; document: string; type: string };
      if (input.funds) await h.deposit(account.id, input.funds);
      return account;
    },
    async deposit(accountId: number, amount: number) {
      const res = await h.admin('POST', '/sandbox/deposits', { accountId, value: amount });
      if (res.statusCode !== 201) throw new Error(`deposit: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async balance(accountId: number): Promise<{ available: number; blocked: number }> {
      const res = await h.admin('GET', `/admin/accounts/${accountId}`);
      return res.json().balance;
    },
    /**
     * An access token for the account through the real flow: a certificate made by the admin API,
     * credentials (optionally with only some scopes), then POST /api/auth/token.
     */
    async tokenFor(accountId: number, scopes?: string[]): Promise<string> {
      const cert = await h.admin('POST', `/admin/accounts/${accountId}/certificates`, {});
      if (cert.statusCode !== 201) throw new Error(`tokenFor (certificate): ${cert.statusCode} ${cert.body}`);
      const creds = await h.admin('POST', `/admin/accounts/${accountId}/credentials`, scopes ? { scopes } : {});
      if (creds.statusCode !== 201) throw new Error(`tokenFor (credentials): ${creds.statusCode} ${creds.body}`);
      const { clientId, clientSecret } = creds.json() as { clientId: string; clientSecret: string };
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/token',
        headers: { 'x-ssl-client-cert': encodeURIComponent(cert.json().certificatePem) },
        payload: { clientId, clientSecret },
      });
      if (res.statusCode !== 201) throw new Error(`tokenFor (token): ${res.statusCode} ${res.body}`);
      const token = res.json().access_token as string;
      certificateOfToken.set(token, encodeURIComponent(cert.json().certificatePem));
      return token;
    },
    /**
     * A call with an account's bearer token (and any extra headers). A token from `tokenFor` travels
     * with its certificate, as a client behind the TLS proxy does (REQUIRE_CERTIFICATE_BOUND_TOKENS).
     */
    async api(
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
      url: string,
      token: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      return app.inject({
        method,
        url,
        headers: {
          ...(certificateOfToken.has(token) ? { 'x-ssl-client-cert': certificateOfToken.get(token)! } : {}),
          ...headers,
          authorization: `Bearer ${token}`,
        },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
    },
    /**
     * PostgreSQL only: another instance of the service on this suite's database (its own pool,
     * scheduler and network wrapper, the same clock), as a second process would be. Closed by `close`.
     */
    async instance(wrap?: ContainerOptions['wrapNetwork']): Promise<Container> {
      if (!schema) throw new Error('a second instance needs the postgres project');
      const other = await openDatabase({ dataDir: 'memory://', schema, poolSize: 5, databaseUrl: options.postgres?.url ?? requirePgUrl(), logger });
      const instance = await createContainer(config, { clock, database: other, logger, ...(wrap ? { wrapNetwork: wrap } : {}) });
      instances.push(instance);
      return instance;
    },
    /** Every suite ends with the ledger check: whatever it did, the books must balance. */
    async close() {
      const ledger = options.checkLedgerOnClose === false ? undefined : await c.checkLedger().catch((error: unknown) => ({ ok: false, error }));
      await app.close();
      for (const instance of instances) await instance.close();
      await c.close();
      if (schema) {
        const client = new pg.Client({ connectionString: requirePgUrl() });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
      if (ledger && !ledger.ok) throw new Error(`ledger check failed at the end of the suite: ${JSON.stringify(ledger)}`);
    },
  };
  return h;
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
export type { App, Container };

function requirePgUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL must be set for the postgres suites');
  return url;
}
