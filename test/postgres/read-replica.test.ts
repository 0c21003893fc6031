import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, setUp, type Client } from '../crash/kill9-kit.ts';
import { call, startInstance, type Instance } from '../deployment/instances-kit.ts';
import { cpf } from '../factories.ts';
import { CLUSTER_REQUIRED, clusterSupport, startReplicatedPair, type ClusterNode, type ReplicatedPair } from './pg-cluster-kit.ts';

/**
 * Issue 31 item 3: DATABASE_READ_URL with a real streaming replica (pg_basebackup of a primary this
 * suite starts with Debian's binaries). The real service (src/main.ts) reads on the replica while it
 * is fresh, reads a caller's own write right after it despite the replica's lag, reads on the primary
 * when the replica lags past DATABASE_READ_MAX_LAG_MS or is down, and exposes
 * database_replica_lag_seconds. Lag is made with `recovery_min_apply_delay` on the replica; what a
 * read saw is told apart by a row changed on the primary behind the service's back (no fence).
 */
const support = clusterSupport();
if (support.missing) {
  console.log(`\n\n!!! test/postgres/read-replica.test.ts SKIPPED: ${support.missing}. It is REQUIRED in CI (CI=1 or POSTGRES_CLUSTER_REQUIRED=1 fail here instead).\n\n`);
}
const run = promisify(execFile);
const asAdmin = { authorization: `Bearer ${ADMIN}` };
const isRoot = process.getuid?.() === 0;

async function waitFor<T>(what: string, withinMs: number, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** pg_ctl on the standby's folder, as the server's user. */
async function pgCtl(bin: string, node: ClusterNode, ...args: string[]) {
  const tool = path.join(bin, 'pg_ctl');
  const all = ['-D', node.dataDir, '-l', `${node.dataDir}.log`, ...args];
  await (isRoot ? run('runuser', ['-u', 'postgres', '--', tool, ...all], { timeout: 120_000 }) : run(tool, all, { timeout: 120_000 }));
}

/** Commits replayed on the standby only this long after the primary made them ('0' replays at once). */
async function applyDelay(standby: ClusterNode, delay: string) {
  await standby.query(`ALTER SYSTEM SET recovery_min_apply_delay = '${delay}'`);
  await standby.query('SELECT pg_reload_conf()');
}

/** Until the standby has replayed everything the primary has written (bounded). */
async function caughtUp(pair: ReplicatedPair) {
  const [{ lsn }] = (await pair.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')) as [{ lsn: string }];
  await waitFor('the standby replayed the primary', 30_000, async () => {
    const rows = await pair.standby.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn]);
    return rows[0]!.ok || undefined;
  });
}

async function lagMetric(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const match = /^database_replica_lag_seconds ([^\s]+)$/m.exec(text);
  if (!match) throw new Error(`no database_replica_lag_seconds in /metrics:\n${text.slice(0, 500)}`);
  return match[1] === '+Inf' ? Infinity : Number(match[1]);
}

/**
 * Until the service's freshness check has seen the replica hold everything the primary had after
 * `since` (its lag metric dates the replica's state after it): fences raised before `since` are passed.
 */
async function freshSince(base: string, since: number) {
  await waitFor('the service finds the replica fresh', 30_000, async () => {
    const before = Date.now();
    return before - (await lagMetric(base)) * 1000 > since || undefined;
  });
}

/** The account's name as the admin list shows it. */
async function listedName(base: string, accountId: number): Promise<string> {
  const answer = await call(base, 'GET', `/admin/accounts?q=${accountId}`, undefined, asAdmin);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.data as Array<{ id: number; name: string }>).find((a) => a.id === accountId)!.name;
}

async function cashOut(base: string, client: Client) {
  const externalId = `rr-${randomUUID()}`;
  const answer = await call(base, 'POST', '/api/pix/cash-out', { value: 0.01, externalId, description: 'replica', details: { key: 'destino@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: cpf(4242) } }, client.headers);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { externalId, transactionId: answer.body.transactionId as string };
}

describe.skipIf(support.missing !== undefined && !CLUSTER_REQUIRED)('read replica: DATABASE_READ_URL on a real streaming replica (issue 31 item 3)', () => {
  let pair: ReplicatedPair | undefined;
  let service: Instance | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-replica-data-'));

  afterAll(async () => {
    await service?.stop();
    await pair?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  const start = (maxLagMs: string) =>
    startInstance('read-replica', pair!.primary.url, {
      MODE: 'sandbox',
      ADMIN_TOKEN: ADMIN,
      DATA_DIR: dataDir,
      WORKERS: '1',
      SANDBOX_SETTLEMENT_DELAY_MS: '200',
      DATABASE_READ_URL: pair!.standby.url,
      ...(maxLagMs ? { DATABASE_READ_MAX_LAG_MS: maxLagMs } : {}),
    });

  it('reads on the replica when fresh, the caller\'s own write right after it despite lag, on the primary when the replica lags past the bound or is down', async () => {
    if (!support.bin) throw new Error(`required in CI: ${support.missing}`);
    pair = await startReplicatedPair(support.bin);
    const { primary, standby } = pair;
    // An asynchronous replica (read replicas usually are): a stopped one must not hold the primary's commits.
    await primary.query("ALTER SYSTEM SET synchronous_standby_names = ''");
    await primary.query('SELECT pg_reload_conf()');

    // A bound far above this test's steps: the replica serves for as long as it is behind.
    service = await start('60000');
    let base = service.url;
    const [writer, other] = (await setUp(base, 2)) as [Client, Client];
    const setUpDone = Date.now();
    await caughtUp(pair);
    await freshSince(base, setUpDone);

    // The replica serves reads: the service's read connections are there, and a change made on the
    // primary behind the service's back (no fence) is not seen while the replica holds it back.
    const connections = await standby.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'pix-account-service-reads'");
    expect(Number(connections[0]!.n)).toBeGreaterThan(0);
    await applyDelay(standby, '1h');
    const originalName = await listedName(base, other.id);
    await primary.query("UPDATE accounts SET name = 'Renamed On Primary' WHERE id = $1", [other.id]);
    expect(await listedName(base, other.id), 'the admin list is read on the replica').toBe(originalName);

    // Read-your-writes: the replica will not replay this cash-out for an hour, yet its writer sees it at once.
    const sent = await cashOut(base, writer);
    const polled = await call(base, 'GET', `/api/pix/transaction/${sent.transactionId}`, undefined, writer.headers);
    expect(polled.status, JSON.stringify(polled.body)).toBe(200);
    const listed = await call(base, 'GET', `/api/transactions?externalId=${sent.externalId}`, undefined, writer.headers);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { transactionId: string }) => t.transactionId)).toEqual([sent.transactionId]);
    const onReplica = await standby.query<{ n: string }>('SELECT count(*) AS n FROM transactions WHERE transaction_id = $1', [sent.transactionId]);
    expect(Number(onReplica[0]!.n), 'the replica has not replayed the cash-out').toBe(0);
    // Another caller's reads stay on the replica (the fence is the writer's own).
    expect(await listedName(base, other.id)).toBe(originalName);
    expect(await lagMetric(base)).toBeGreaterThan(0);

    // The replica down: reads go to the primary, never an error.
    await pgCtl(support.bin, standby, '-m', 'immediate', 'stop');
    expect(await listedName(base, other.id), 'read on the primary with the replica down').toBe('Renamed On Primary');
    const whileDown = await call(base, 'GET', `/api/transactions?externalId=${sent.externalId}`, undefined, other.headers);
    expect(whileDown.status).toBe(200);
    const ledger = await call(base, 'GET', '/admin/ledger/check', undefined, asAdmin);
    expect(ledger.status).toBe(200);
    expect(ledger.body.ok).toBe(true);
    expect(await service.stop()).toBe(0);
    service = undefined;

    // Lagging past the bound (1.5 s): the primary serves; the metric says how far behind it is.
    await pgCtl(support.bin, standby, '-w', '-t', '60', 'start');
    await applyDelay(standby, '0');
    await caughtUp(pair);
    service = await start('1500');
    base = service.url;
    await freshSince(base, Date.now());
    await applyDelay(standby, '1h');
    await primary.query("UPDATE accounts SET name = 'Renamed Again' WHERE id = $1", [other.id]);
    const lag = await waitFor('the lag metric passes the bound', 30_000, async () => {
      const seconds = await lagMetric(base);
      return seconds > 1.5 ? seconds : undefined;
    });
    expect(lag).toBeGreaterThan(1.5);
    expect(await listedName(base, other.id), 'read on the primary past the lag bound').toBe('Renamed Again');

    // Replayed again: the metric comes back under the bound.
    await applyDelay(standby, '0');
    await waitFor('the lag metric back under the bound', 30_000, async () => (await lagMetric(base)) < 1.5 || undefined);
  }, 300_000);
});
