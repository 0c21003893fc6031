import { randomUUID } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, setUp, type Client } from '../crash/kill9-kit.ts';
import { startInstance, type Instance } from '../deployment/instances-kit.ts';
import { cpf } from '../factories.ts';
import { LOOP_WAIT_S, PATRONI_REQUIRED, RETRY_TIMEOUT_S, TTL_S, patroniSupport, startPatroniCluster, until, type PatroniCluster, type PatroniNode } from './patroni-kit.ts';

/**
 * Issue 31 item 1: failover under a real HA manager. One etcd and two PostgreSQL nodes under Debian's
 * Patroni (synchronous mode; patroni-kit.ts, the settings of deploy/patroni/patroni.yml), the real
 * service as a process under a stream of cash-outs, and the faults an operator meets:
 *  (a) the primary's postmaster killed (kill -9): Patroni fails over by itself;
 *  (b) the primary's host partitioned (its Patroni killed -9, its PostgreSQL still running): the
 *      other node takes the leader key when it expires, fences the old primary (pre_promote) and
 *      promotes; the old primary never answers as a primary again;
 *  (c) the service through HAProxy checking Patroni's REST API instead of the multi-host URL.
 * And the planned switchover of the runbook (`patronictl switchover`).
 * Each time: 2xx again within BACK_WITHIN_MS of the promotion, every acknowledged cash-out on the new
 * primary exactly once with its hold (and its settlement once settled), the ledger check green, and
 * the old primary back as the synchronous standby, never written to by the service.
 */
const support = patroniSupport();
if (support.missing) {
  if (PATRONI_REQUIRED) throw new Error(`PATRONI_REQUIRED is set but ${support.missing} (.ci/run installs patroni etcd-server haproxy)`);
  console.log(`\n\n!!! test/postgres/patroni-failover.test.ts SKIPPED: ${support.missing}. It is REQUIRED in CI (CI=1 or PATRONI_REQUIRED=1 fail here instead).\n\n`);
}

/** The promise (issue 31): the service answers 2xx again this soon after the promotion. */
const BACK_WITHIN_MS = 15_000;
/**
 * How long Patroni may take to promote: after a crash, a few loops (LOOP_WAIT_S each) and the REST
 * calls between the nodes; after a partition, the leader key's TTL first. Both with room for a
 * loaded 2-core machine (these bound the test, they are not the promise: a switchover at load
 * average 48 took 24 s).
 */
const CRASH_PROMOTED_WITHIN_MS = (TTL_S + 10 * LOOP_WAIT_S) * 1000 + 40_000;
const PARTITION_PROMOTED_WITHIN_MS = (2 * TTL_S + RETRY_TIMEOUT_S + 10 * LOOP_WAIT_S) * 1000 + 40_000;
/** The old primary back as the streaming synchronous standby (crash recovery, pg_rewind, restart). */
const REJOIN_WITHIN_MS = 120_000;

const asAdmin = { authorization: `Bearer ${ADMIN}` };

interface Answer {
  status: number;
  retryAfter: string | null;
  body: string;
}

async function call(base: string, method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    // A request left hanging is a failure of its own (every wait of the service is bounded).
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
}

interface CashOut {
  accountId: number;
  externalId: string;
  transactionId: string;
  amountCents: number;
  startedAt: number;
  answeredAt: number;
}

/**
 * Six clients sending cash-outs in a loop. Only a 2xx counts as acknowledged (what the client was
 * told); a 503 must carry Retry-After; any other 5xx, or no answer, is a failure.
 */
function cashOutStream(base: string, clients: Client[], tag: string) {
  const acknowledged: CashOut[] = [];
  const failures: string[] = [];
  const unavailable = { count: 0, withoutRetryAfter: 0 };
  const refused: string[] = [];
  let running = true;
  const worker = async (w: number) => {
    for (let i = 0; running; i++) {
      const client = clients[(i + w) % clients.length]!;
      const externalId = `ha-${tag}-${randomUUID()}`;
      const amountCents = 1 + (i % 3);
      const startedAt = Date.now();
      try {
        const answer = await call(base, 'POST', '/api/pix/cash-out', client.headers, {
          value: amountCents / 100,
          externalId,
          description: 'patroni failover',
          details: { key: 'destino@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: cpf(4242) },
        });
        if (answer.status >= 200 && answer.status < 300) {
          acknowledged.push({ accountId: client.id, externalId, transactionId: JSON.parse(answer.body).transactionId, amountCents, startedAt, answeredAt: Date.now() });
        } else if (answer.status === 503) {
          unavailable.count += 1;
          if (!answer.retryAfter) unavailable.withoutRetryAfter += 1;
          await new Promise((r) => setTimeout(r, 100));
        } else if (answer.status >= 500) {
          failures.push(`${answer.status} ${answer.body.slice(0, 500)}`);
        } else if (refused.length < 5) {
          refused.push(`${answer.status} ${answer.body.slice(0, 300)}`);
        }
      } catch (error) {
        failures.push(`no answer: ${(error as Error).message}`);
      }
    }
  };
  const workers = Array.from({ length: 6 }, (_, w) => worker(w));
  return {
    acknowledged,
    failures,
    unavailable,
    summary: () => JSON.stringify({ acknowledged: acknowledged.length, unavailable, failures: failures.slice(0, 5), refused }),
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

/**
 * Watches both servers from the fault until the end: records every moment the old primary answers
 * as a primary after the new one was promoted (must never happen), and when the promotion happened.
 */
function watchRoles(oldPrimary: PatroniNode, newPrimary: PatroniNode) {
  let promotedAt: number | undefined;
  const oldPrimaryAfterPromotion: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const [newIsPrimary, oldIsPrimary] = await Promise.all([newPrimary.isPrimary(), oldPrimary.isPrimary()]);
      const now = Date.now();
      if (promotedAt === undefined && newIsPrimary === true) promotedAt = now;
      if (promotedAt !== undefined && oldIsPrimary === true) oldPrimaryAfterPromotion.push(new Date(now).toISOString());
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    promotedAt: () => promotedAt,
    oldPrimaryAfterPromotion,
    async stop() {
      running = false;
      await loop;
    },
  };
}

describe.skipIf(support.missing !== undefined)('failover under Patroni (etcd, two PostgreSQL nodes, synchronous mode): issue 31 item 1', () => {
  let cluster: PatroniCluster | undefined;
  let service: Instance | undefined;
  let haproxy: Awaited<ReturnType<PatroniCluster['startHaproxy']>> | undefined;
  // Made in beforeAll: a skipped suite still collects this body, and must leave no folder behind.
  let dataDir = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pix-patroni-service-'));
    cluster = await startPatroniCluster(support.tools!);
    const { leader } = await cluster.healthy(60_000);
    await leader.query('CREATE DATABASE pix');
  }, 300_000);

  afterAll(async () => {
    await service?.stop().catch(() => {});
    await haproxy?.stop().catch(() => {});
    await cluster?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  /**
   * One fault under load: the service on `databaseUrl(leader, standby)`, cash-outs before the fault,
   * the fault, the promotion (seen on the servers), 2xx again, the old primary back as the standby,
   * cash-outs after that, then every check.
   */
  async function failoverUnderLoad(o: {
    tag: string;
    databaseUrl: (leader: PatroniNode, standby: PatroniNode) => string | Promise<string>;
    fault: (leader: PatroniNode) => Promise<void>;
    promotedWithinMs: number;
    /** Brings the old primary's host back (after a partition), once the new primary is promoted. */
    heal?: (oldPrimary: PatroniNode) => Promise<void>;
  }) {
    const c = cluster!;
    const { leader: oldPrimary, standby: newPrimary } = await c.healthy(REJOIN_WITHIN_MS);
    service = await startInstance(`patroni-${o.tag}`, await o.databaseUrl(oldPrimary, newPrimary), {
      MODE: 'sandbox',
      ADMIN_TOKEN: ADMIN,
      DATA_DIR: dataDir,
      SANDBOX_SETTLEMENT_DELAY_MS: '200',
      // Every DB_* bound at its default: as users start it.
    });
    const base = service.url;
    const clients = await setUp(base, 4);
    const stream = cashOutStream(base, clients, o.tag);
    let roles: ReturnType<typeof watchRoles> | undefined;
    let promotedAt: number;
    let faultAt: number;
    try {
      await until('cash-outs acknowledged before the fault', 60_000, () => (stream.acknowledged.length >= 20 ? true : undefined), stream.summary);
      roles = watchRoles(oldPrimary, newPrimary);
      faultAt = Date.now();
      await o.fault(oldPrimary);
      promotedAt = await until(`${newPrimary.name} promoted by Patroni`, o.promotedWithinMs, () => roles!.promotedAt(), async () => `${JSON.stringify(await c.members())}\n${c.logs()}`);
      // The first 2xx to a cash-out sent after the promotion (one sent before may have been committed on the old primary).
      const back = await until('a cash-out sent after the promotion answered 2xx', BACK_WITHIN_MS + 30_000, () => stream.acknowledged.find((a) => a.startedAt > promotedAt)?.answeredAt, stream.summary);
      console.log(
        `patroni ${o.tag}: fault, promoted ${promotedAt - faultAt} ms later; 2xx again ${back - promotedAt} ms after the promotion; ` +
          `${stream.unavailable.count} answers 503 meanwhile (load average ${loadavg()[0]!.toFixed(1)})`,
      );
      expect(back - promotedAt, 'the first 2xx after the promotion').toBeLessThan(BACK_WITHIN_MS);
      if (o.heal) await o.heal(oldPrimary);
      // The old primary comes back as the new primary's synchronous standby (pg_rewind or a new copy).
      const after = await c.healthy(REJOIN_WITHIN_MS).catch(async (error: Error) => {
        throw new Error(`${error.message}\n${c.logs()}`);
      });
      expect(after.leader.name).toBe(newPrimary.name);
      expect(after.standby.name).toBe(oldPrimary.name);
      // Cash-outs keep being acknowledged with the old primary back as the standby (every commit waits for it).
      const acknowledgedSoFar = stream.acknowledged.length;
      await until('cash-outs acknowledged after the old primary rejoined', 60_000, () => (stream.acknowledged.length >= acknowledgedSoFar + 20 ? true : undefined), stream.summary);
    } finally {
      await stream.stop();
      await roles?.stop();
    }

    expect(service.process.exitCode, `the service exited:\n${service.output().slice(-3000)}`).toBeNull();
    expect(stream.failures, 'answers other than 2xx, 4xx or 503 (or no answer at all)').toEqual([]);
    expect(stream.unavailable.withoutRetryAfter, '503 answers without Retry-After').toBe(0);
    // Never two primaries: from the promotion on, the old primary never answered as one.
    expect(roles!.oldPrimaryAfterPromotion, 'moments the old primary answered as a primary after the promotion').toEqual([]);

    // Every acknowledged cash-out is settled by the service's jobs, on the new primary.
    const ids = stream.acknowledged.map((a) => a.transactionId);
    await until('every acknowledged cash-out settled', 120_000, async () => {
      const rows = await newPrimary.query<{ n: string }>(
        "SELECT count(*) AS n FROM transactions WHERE transaction_id = ANY($1::uuid[]) AND status <> 'PENDING'",
        [ids],
        'pix',
      );
      return Number(rows[0]!.n) === ids.length ? true : undefined;
    }, () => stream.summary());

    // Through the service: the ledger holds (journals balanced, balances equal postings, none negative).
    const ledger = await call(base, 'GET', '/admin/ledger/check', asAdmin);
    expect(ledger.status, ledger.body).toBe(200);
    expect(JSON.parse(ledger.body)).toMatchObject({ ok: true, drift: { count: 0 }, negativeBalances: { count: 0 }, unbalancedJournals: { count: 0 } });

    // On the new primary: what each client was told exists exactly once, with one hold and one settlement.
    // The hold is the row's own (held without postings, migration 1400: hold_unposted); the settlement
    // is one journal.
    const rows = await newPrimary.query<{ transaction_id: string; account_id: string; external_id: string; amount: string; status: string; hold_unposted: boolean | null; holds: string; settles: string; releases: string }>(
      `SELECT t.transaction_id::text, t.account_id, t.external_id, t.original_amount AS amount, t.status, t.hold_unposted,
              count(DISTINCT p.journal_id) FILTER (WHERE p.reason = 'hold') AS holds,
              count(DISTINCT p.journal_id) FILTER (WHERE p.reason = 'settle') AS settles,
              count(DISTINCT p.journal_id) FILTER (WHERE p.reason = 'release') AS releases
         FROM transactions t LEFT JOIN postings p ON p.transaction_id = t.id
        WHERE t.external_id LIKE $1
        GROUP BY t.id`,
      [`ha-${o.tag}-%`],
      'pix',
    );
    const byExternalId = new Map<string, typeof rows>();
    for (const row of rows) byExternalId.set(row.external_id, [...(byExternalId.get(row.external_id) ?? []), row]);
    for (const a of stream.acknowledged) {
      const found = byExternalId.get(a.externalId) ?? [];
      expect(found.map((r) => r.transaction_id), `cash-out ${a.externalId}: exactly once, with the id the client was told`).toEqual([a.transactionId]);
      const row = found[0]!;
      expect(Number(row.account_id)).toBe(a.accountId);
      expect(Number(row.amount)).toBe(a.amountCents);
      expect({ status: row.status, held: row.hold_unposted, holds: row.holds, settles: row.settles, releases: row.releases }, `cash-out ${a.externalId}`).toEqual({ status: 'CONFIRMED', held: true, holds: '0', settles: '1', releases: '0' });
    }
    // Nothing the clients were not told about was paid twice either: one row per external id.
    expect(rows.length).toBe(byExternalId.size);

    // The old primary, now the standby, replays the same rows (it has every acknowledged cash-out).
    await until('the old primary replays every acknowledged cash-out', 60_000, async () => {
      const replayed = await oldPrimary.query<{ n: string }>('SELECT count(*) AS n FROM transactions WHERE transaction_id = ANY($1::uuid[])', [ids], 'pix');
      return Number(replayed[0]!.n) === ids.length ? true : undefined;
    });
    expect(await oldPrimary.isPrimary(), 'the old primary is a standby').toBe(false);
    console.log(`patroni ${o.tag}: ${stream.acknowledged.length} cash-outs acknowledged, every one on the new primary once, held and settled once`);

    const lines = service.lines();
    await service.stop();
    service = undefined;
    return { oldPrimary, newPrimary, promotedAt: promotedAt!, acknowledged: stream.acknowledged, serviceLines: lines };
  }

  const multiHostUrl = (leader: PatroniNode, standby: PatroniNode) =>
    // The old primary first: the worst order for the host selector (it is tried first after the failover).
    `postgres://postgres@127.0.0.1:${leader.pgPort},127.0.0.1:${standby.pgPort}/pix?target_session_attrs=read-write`;

  it('(a) multi-host URL: the primary\'s postmaster killed -9, Patroni promotes the standby, 2xx again within 15 s, no acknowledged cash-out lost or doubled, the old primary rejoins as the standby', async () => {
    await failoverUnderLoad({
      tag: 'crash',
      databaseUrl: multiHostUrl,
      fault: async (leader) => leader.killPostmaster(),
      promotedWithinMs: CRASH_PROMOTED_WITHIN_MS,
    });
  }, 600_000);

  it('a planned switchover (`patronictl switchover`) on the multi-host URL: 2xx again within 15 s of the promotion, nothing acknowledged lost or doubled, the old primary follows as the standby', async () => {
    let output = '';
    await failoverUnderLoad({
      tag: 'switchover',
      databaseUrl: multiHostUrl,
      fault: async (leader) => {
        const candidate = cluster!.nodes.find((n) => n !== leader)!;
        output = await cluster!.patronictl('switchover', '--leader', leader.name, '--candidate', candidate.name, '--force');
      },
      promotedWithinMs: CRASH_PROMOTED_WITHIN_MS,
    });
    expect(output).toMatch(/Successfully switched over/);
  }, 600_000);

  const throughHaproxy = async () => {
    haproxy = await cluster!.startHaproxy();
    return `postgres://postgres@127.0.0.1:${haproxy.port}/pix`;
  };
  const stopHaproxy = async () => {
    await haproxy?.stop();
    haproxy = undefined;
  };

  it('(c) through HAProxy checking Patroni\'s REST API (GET /primary): the primary\'s postmaster killed -9, 2xx again within 15 s, nothing acknowledged lost or doubled, the old primary rejoins', async () => {
    try {
      await failoverUnderLoad({
        tag: 'crash-haproxy',
        databaseUrl: throughHaproxy,
        fault: async (leader) => leader.killPostmaster(),
        promotedWithinMs: CRASH_PROMOTED_WITHIN_MS,
      });
    } finally {
      await stopHaproxy();
    }
  }, 600_000);

  /**
   * A partition: the primary's Patroni killed -9 (etcd and the other node no longer hear from it)
   * while its PostgreSQL keeps running and keeps answering as a primary. The other node takes the
   * leader key once it expires, runs the fencing script (pre_promote) that stops the old primary, and
   * only then promotes. The host comes back: its Patroni started again rejoins it as the standby.
   */
  async function partition(tag: string, databaseUrl: (leader: PatroniNode, standby: PatroniNode) => string | Promise<string>) {
    const { standby } = await cluster!.healthy(REJOIN_WITHIN_MS);
    const fenceLogFile = path.join(cluster!.dir, `${standby.name}-fence.log`);
    const fenceLogBefore = existsSync(fenceLogFile) ? readFileSync(fenceLogFile, 'utf8').length : 0;
    const result = await failoverUnderLoad({
      tag,
      databaseUrl,
      fault: async (leader) => {
        await leader.killPatroni();
        // Patroni starts PostgreSQL detached: without its manager it still runs, and still as a primary.
        expect(await leader.isPrimary(), 'the old primary still answers as a primary once its Patroni is gone').toBe(true);
      },
      promotedWithinMs: PARTITION_PROMOTED_WITHIN_MS,
      heal: async (oldPrimary) => oldPrimary.startPatroni(),
    });
    // The fence ran before the promotion and stopped the old primary (the new one's fencing log).
    expect(result.newPrimary.name).toBe(standby.name);
    const fenceLog = readFileSync(fenceLogFile, 'utf8').slice(fenceLogBefore);
    expect(fenceLog).toMatch(/the old primary answers as a primary: stopping it/);
    return result;
  }

  it('(b) multi-host URL: the primary\'s host partitioned (its Patroni killed -9), the other node fences it and promotes; 2xx within 15 s of the promotion; the service never writes to the old primary after it', async () => {
    const result = await partition('partition', multiHostUrl);
    // The service's host selector moved to the new primary, and never back to the old one after the promotion.
    const moves = result.serviceLines.filter((l) => l.msg === 'database: connecting to this host from now on');
    expect(moves.at(-1)?.host).toBe(`127.0.0.1:${result.newPrimary.pgPort}`);
    expect(moves.filter((l) => l.time > result.promotedAt && l.host === `127.0.0.1:${result.oldPrimary.pgPort}`)).toEqual([]);
  }, 600_000);

  it('(b) through HAProxy: the primary\'s host partitioned, HAProxy leaves it as soon as its Patroni stops answering; 2xx within 15 s of the promotion', async () => {
    try {
      await partition('partition-haproxy', throughHaproxy);
    } finally {
      await stopHaproxy();
    }
  }, 600_000);
});
