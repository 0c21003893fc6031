/**
 * The service as users start it, in a process of its own: `npm start` runs `tsx src/main.ts`; this
 * runs the same (node_modules/.bin/tsx src/main.ts, without npm's wrapper process) with
 * DATABASE_URL set to a fresh database of the benchmark's server, sandbox mode, the settlement delay
 * of the load, and WORKERS as the trial says (unset: the service's default). Nothing else is set:
 * pool size, timeouts and everything else are the service's defaults. `cpuProfileDir` adds node's
 * `--cpu-prof` (tsx passes node's flags on; cluster workers inherit them).
 *
 * Waits until the service has printed its sandbox banner (it does so after listening and starting
 * its background work), then the accounts are made through the admin API. The benchmark's own reads
 * (waiting for settlement, the invariants) go to the database on connections of their own, marked
 * OBSERVER (not counted).
 */
import { randomBytes } from 'node:crypto';
import { adminClient } from './admin-client.ts';
import { inheritedEnv, startOnDatabase } from './child.ts';
import type { BenchPostgres } from './postgres.ts';
import { sleep } from './stats.ts';


export interface ServiceProcessOptions {
  settlementDelayMs: number;
  /** WORKERS; undefined: unset (the service's default for this machine). */
  workers?: number | undefined;
  /** Adds `--cpu-prof --cpu-prof-dir=<dir>` to node's flags. */
  cpuProfileDir?: string;
  /** Another checkout of the service to start instead of this one (a before/after comparison). */
  root?: string;
  /**
   * Through a transaction pooler (PgBouncer): DATABASE_URL is the pooler's URL for the service's
   * database, DATABASE_PREPARED_STATEMENTS=false, and DATABASE_LISTEN_URL the direct one.
   */
  pooler?: { urlFor(databaseUrl: string): string };
}

/** Environment variables of the service this benchmark sets or clears; the rest is inherited. */
const CLEARED = ['DATABASE_URL', 'DATABASE_PREPARED_STATEMENTS', 'DATABASE_LISTEN_URL', 'TEST_DATABASE_URL', 'WORKERS', 'DB_POOL_SIZE', 'PORT', 'HOST', 'MODE', 'ADMIN_TOKEN', 'DATA_DIR', 'LOG_LEVEL', 'NODE_OPTIONS'];

export async function startServiceProcess(pgs: BenchPostgres, options: ServiceProcessOptions) {
  const adminToken = `bench-admin-${randomBytes(12).toString('hex')}`;
  const run = await startOnDatabase(pgs, {
    prefix: 'bench_svc',
    entry: 'src/main.ts',
    ...(options.root ? { root: options.root } : {}),
    readyText: 'running in SANDBOX mode',
    nodeFlags: options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [],
    env: ({ databaseUrl, port, folder }) => ({
      ...inheritedEnv(CLEARED),
      DATABASE_URL: options.pooler ? options.pooler.urlFor(databaseUrl) : databaseUrl,
      ...(options.pooler ? { DATABASE_PREPARED_STATEMENTS: 'false', DATABASE_LISTEN_URL: databaseUrl } : {}),
      MODE: 'sandbox',
      ADMIN_TOKEN: adminToken,
      DATA_DIR: folder,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SANDBOX_SETTLEMENT_DELAY_MS: String(options.settlementDelayMs),
      ...(options.workers !== undefined ? { WORKERS: String(options.workers) } : {}),
    }),
  });
  const { database, origin } = run;
  // With WORKERS > 1 the first worker prints the banner; let the others finish listening.
  if (options.workers !== 1) await sleep(1500);

  const client = adminClient(origin, adminToken);
  const count = async (text: string) => Number((await pgs.query<{ n: string }>(text, [], database))[0]!.n);

  return {
    origin,
    database,
    /** The tsx process (its child is node running the service; with WORKERS > 1, the cluster primary). */
    pid: run.pid,
    ...client,
    /** Waits (bounded) until every cash-out is settled and its event written. */
    async waitSettled(timeoutMs = 120_000): Promise<boolean> {
      const until = performance.now() + timeoutMs;
      while (performance.now() < until) {
        const pending = await count(`SELECT count(*) AS n FROM transactions WHERE kind = 'WITHDRAW' AND status = 'PENDING'`);
        const unannounced = await count(`SELECT (SELECT count(*) FROM transactions WHERE kind = 'WITHDRAW') - (SELECT count(*) FROM events WHERE type = 'cash_out') AS n`);
        if (pending === 0 && unannounced <= 0) return true;
        await sleep(100);
      }
      return false;
    },
    /** The invariants after a load: the operator's ledger check, each externalId once, every 201 stored. */
    async invariants(created: readonly string[]): Promise<string[]> {
      const broken = await client.ledgerFindings();
      const dup = await count(`SELECT count(*) AS n FROM (SELECT 1 FROM transactions WHERE external_id IS NOT NULL GROUP BY account_id, external_id HAVING count(*) > 1) d`);
      if (dup > 0) broken.push(`${dup} externalIds stored more than once`);
      const stored = new Set((await pgs.query<{ id: string }>(`SELECT external_id AS id FROM transactions WHERE kind = 'WITHDRAW'`, [], database)).map((r) => r.id));
      const missing = created.filter((id) => !stored.has(id));
      if (missing.length > 0) broken.push(`${missing.length} cash-outs answered 201 but not stored (e.g. ${missing[0]})`);
      if (stored.size !== created.length) broken.push(`${created.length} cash-outs answered 201 but ${stored.size} are stored`);
      return broken;
    },
    /** Stops the service (SIGTERM, as a supervisor does); `keep` leaves its database for reading. */
    async close(keep = false) {
      await client.close();
      await run.release(keep);
    },
  };
}

export type ServiceProcess = Awaited<ReturnType<typeof startServiceProcess>>;
