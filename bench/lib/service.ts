/**
 * The service under test, in-process and listening on a port: a fresh instance (its own PGlite, or
 * its own private PostgreSQL schema dropped on close), sandbox mode, background work (settlement,
 * webhook relay) running as in production. Accounts are created through the admin API.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { openDatabase } from '../../src/db/database.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { adminClient } from './admin-client.ts';
import { PG_URL, type Engine } from './env.ts';
import { dropSchema, privateSchema } from './schemas.ts';
import { sleep } from './stats.ts';
import { quiet } from './statement-tap.ts';

export interface ServiceOptions {
  /** Sandbox settlement delay (ms): settlement jobs and events run alongside the load. */
  settlementDelayMs: number;
  poolSize?: number;
}

export async function startService(engine: Engine, options: ServiceOptions) {
  const admin = `bench-admin-${randomBytes(8).toString('hex')}`;
  const schema = engine === 'postgres' ? privateSchema('bench_svc') : undefined;
  const database =
    engine === 'postgres'
      ? await openDatabase({ databaseUrl: PG_URL!, dataDir: 'memory://', schema: schema!, poolSize: options.poolSize ?? 20 })
      : await openDatabase({ dataDir: 'memory://' });
  const config = loadConfig({
    MODE: 'sandbox',
    ADMIN_TOKEN: admin,
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    SANDBOX_SETTLEMENT_DELAY_MS: String(options.settlementDelayMs),
    PORT: '0',
  });
  const c = await createContainer(config, { clock: systemClock, database, logger: pino({ level: 'silent' }) });
  const app = await buildApp(c);
  await app.listen({ host: '127.0.0.1', port: 0 });
  c.start();
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const client = adminClient(origin, admin);
  const { call, makeAccounts, makeIdentities } = client;

  /**
   * The benchmark's own reads while a load is counted, never through the service's pool: on
   * PostgreSQL a connection of its own (a pooled connection opened inside quiet() would carry that
   * context into its socket's callbacks), on PGlite the one instance, uncounted.
   */
  let own: pg.Client | undefined;
  async function benchCount(text: string): Promise<number> {
    return quiet(async () => {
      if (engine === 'pglite') return Number((await sql.raw<{ n: string }>(text).execute(c.db)).rows[0]!.n);
      if (!own) {
        own = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
        await own.connect();
      }
      return Number((await own.query<{ n: string }>(text)).rows[0]!.n);
    });
  }

  /** Waits (bounded) until every cash-out is settled and its event written; the wait is not counted. */
  async function waitSettled(timeoutMs = 60_000): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      const pending = await benchCount(`SELECT count(*) AS n FROM transactions WHERE kind = 'WITHDRAW' AND status = 'PENDING'`);
      const unannounced = await benchCount(
        `SELECT (SELECT count(*) FROM transactions WHERE kind = 'WITHDRAW') - (SELECT count(*) FROM events WHERE type = 'cash_out') AS n`,
      );
      if (pending === 0 && unannounced <= 0) return true;
      await sleep(50);
    }
    return false;
  }

  /** The invariants after a load: the ledger check, each externalId once, every 201 stored. */
  async function invariants(created: readonly string[]): Promise<string[]> {
    return quiet(async () => {
      const broken: string[] = [];
      const ledger = await c.checkLedger();
      if (!ledger.ok) {
        broken.push(
          `ledger check failed: total ${ledger.postings.total}, ${ledger.unbalancedJournals.count} unbalanced journals, ` +
            `drift on ${ledger.drift.count} accounts ${JSON.stringify(ledger.drift.items.slice(0, 3))}, ${ledger.negativeBalances.count} negative balances`,
        );
      }
      const dup = await c.db
        .selectFrom('transactions')
        .select(['account_id', 'external_id'])
        .where('external_id', 'is not', null)
        .groupBy(['account_id', 'external_id'])
        .having((e) => e.fn.countAll(), '>', 1)
        .execute();
      if (dup.length > 0) broken.push(`${dup.length} externalIds stored more than once`);
      const stored = await c.db.selectFrom('transactions').select('external_id').where('kind', '=', 'WITHDRAW').execute();
      const storedIds = new Set(stored.map((r) => r.external_id));
      const missing = created.filter((id) => !storedIds.has(id));
      if (missing.length > 0) broken.push(`${missing.length} cash-outs answered 201 but not stored (e.g. ${missing[0]})`);
      if (stored.length !== created.length) broken.push(`${created.length} cash-outs answered 201 but ${stored.length} are stored`);
      return broken;
    });
  }

  /** Group-commit statistics, when the service has a batcher (an internal: optional). */
  const batchStats = () => (c.payouts as { payouts?: { batchStats?: () => { batches: number; items: number; retries: number; fallbacks: number } | undefined } }).payouts?.batchStats?.();

  async function close() {
    await quiet(async () => own?.end());
    await client.close();
    await app.close();
    await c.close();
    if (schema) await dropSchema(schema);
  }

  return { engine, origin, server: app.server, c, call, makeAccounts, makeIdentities, waitSettled, invariants, batchStats, close };
}

export type Service = Awaited<ReturnType<typeof startService>>;
