import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, setUp, type Client } from '../crash/kill9-kit.ts';
import { startInstance, type Instance } from '../deployment/instances-kit.ts';
import { cpf } from '../factories.ts';
import { CLUSTER_REQUIRED, clusterSupport, startReplicatedPair, type ReplicatedPair } from './pg-cluster-kit.ts';

/**
 * Issue 25 item 1, "Done means": a primary and a synchronous streaming standby on Debian's
 * PostgreSQL server binaries; the real service (src/main.ts, a separate process started with
 * DATABASE_URL, as users start it) on the two-host URL under mixed load (cash-outs, charges paid,
 * refunds, deposits); the primary stopped with `pg_ctl -m immediate`, the standby promoted. The
 * service answers 2xx again within 10 s of the promotion, never 500 and never crashes meanwhile
 * (503 with Retry-After), every request it answered 2xx is on the new primary exactly once,
 * GET /admin/ledger/check is green, and the notification listener reconnected to the new primary.
 */
const support = clusterSupport();
if (support.missing) {
  console.log(`\n\n!!! test/postgres/failover.test.ts SKIPPED: ${support.missing}. It is REQUIRED in CI (CI=1 or POSTGRES_CLUSTER_REQUIRED=1 fail here instead).\n\n`);
}

/** The first 2xx of a write must come this soon after the promotion (the issue's bound). */
const BACK_WITHIN_MS = 10_000;

interface Answer {
  status: number;
  retryAfter: string | null;
  body: string;
  json: () => any;
}

async function call(base: string, method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    // A request left hanging is a failure of its own (every wait of the service is bounded).
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text, json: () => JSON.parse(text) };
}

const asAdmin = { authorization: `Bearer ${ADMIN}` };

interface Acknowledged {
  cashOuts: Array<{ accountId: number; externalId: string; transactionId: string; at: number }>;
  chargesPaid: Array<{ accountId: number; transactionId: string; amountCents: number; refundedCents: number; at: number }>;
  refunds: Array<{ accountId: number; externalId: string; transactionId: string; at: number }>;
  deposits: number;
}

/**
 * Eight clients in a loop: a cash-out, a charge created and paid by a simulated payer, a partial
 * refund of a charge paid earlier, a deposit. Only a 2xx counts as acknowledged; a 503 must carry
 * Retry-After; any other 5xx, or no answer at all, is recorded as a failure.
 */
function mixedLoad(base: string, clients: Client[]) {
  const acknowledged: Acknowledged = { cashOuts: [], chargesPaid: [], refunds: [], deposits: 0 };
  const failures: string[] = [];
  const unavailable = { count: 0, withoutRetryAfter: 0 };
  /** The first few refusals (4xx) of each kind: shown when the load does not progress. */
  const refused: Record<string, string[]> = {};
  let running = true;
  const judge = (what: string, answer: Answer) => {
    if (answer.status >= 400 && answer.status < 500 && (refused[what] ??= []).length < 3) refused[what]!.push(`${answer.status} ${answer.body.slice(0, 300)}`);
    if (answer.status === 503) {
      unavailable.count += 1;
      if (!answer.retryAfter) unavailable.withoutRetryAfter += 1;
    } else if (answer.status >= 500) {
      failures.push(`${what}: ${answer.status} ${answer.body}`);
    }
    return answer.status >= 200 && answer.status < 300;
  };
  const worker = async (w: number) => {
    for (let i = 0; running; i++) {
      const client = clients[Math.floor(Math.random() * clients.length)]!;
      const kind = (i + w) % 4;
      try {
        if (kind === 0) {
          const externalId = `fo-${randomUUID()}`;
          const answer = await call(base, 'POST', '/api/pix/cash-out', client.headers, {
            value: 0.01 * (1 + (i % 3)),
            externalId,
            description: 'failover',
            details: { key: 'destino@example.com', keyType: 'EMAIL', name: 'Fulano de Tal', document: cpf(4242) },
          });
          if (judge('cash-out', answer)) acknowledged.cashOuts.push({ accountId: client.id, externalId, transactionId: answer.json().transactionId, at: Date.now() });
        } else if (kind === 1) {
          const charge = await call(base, 'POST', '/api/pix/cash-in', client.headers, {
            transaction: { value: 2, description: 'failover charge', externalId: `fo-charge-${randomUUID()}` },
            payer: { fullName: 'Pagador Teste', document: cpf(7_000 + w) },
          });
          if (!judge('cash-in', charge)) continue;
          const transactionId = charge.json().transactionId as string;
          const paid = await call(base, 'POST', `/sandbox/charges/${transactionId}/pay`, asAdmin, { accountId: client.id });
          if (judge('pay', paid)) acknowledged.chargesPaid.push({ accountId: client.id, transactionId, amountCents: 200, refundedCents: 0, at: Date.now() });
        } else if (kind === 2) {
          const original = acknowledged.chargesPaid.find((c) => c.accountId === client.id && c.refundedCents + 10 <= c.amountCents);
          if (!original) continue;
          original.refundedCents += 10; // claimed before the call: two workers never refund past the amount
          const externalId = `fo${randomBytes(8).toString('hex')}`;
          const answer = await call(base, 'POST', `/api/pix/refund-in/${original.transactionId}`, client.headers, { refundValue: 0.1, externalId });
          if (judge('refund-in', answer)) acknowledged.refunds.push({ accountId: client.id, externalId, transactionId: answer.json().transactionId, at: Date.now() });
        } else {
          const answer = await call(base, 'POST', '/sandbox/deposits', asAdmin, { accountId: client.id, amount: 1 });
          if (judge('deposit', answer)) acknowledged.deposits += 1;
        }
      } catch (error) {
        failures.push(`kind ${kind}: no answer: ${(error as Error).message}`);
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  return {
    acknowledged,
    failures,
    unavailable,
    /** For a failure message: what was done and refused so far. */
    summary: () =>
      JSON.stringify({
        cashOuts: acknowledged.cashOuts.length,
        chargesPaid: acknowledged.chargesPaid.length,
        refunds: acknowledged.refunds.length,
        deposits: acknowledged.deposits,
        unavailable,
        failures: failures.slice(0, 5),
        refused,
      }),
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

async function waitFor<T>(what: string, withinMs: number, check: () => Promise<T | undefined> | T | undefined, state?: () => string): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what}: not within ${withinMs} ms${state ? `; ${state()}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(support.missing !== undefined && !CLUSTER_REQUIRED)('PostgreSQL failover: primary + synchronous standby, the primary killed, the standby promoted (issue 25 item 1)', () => {
  let pair: ReplicatedPair | undefined;
  let service: Instance | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-failover-data-'));

  afterAll(async () => {
    await service?.stop();
    await pair?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('answers 2xx again within 10 s of the promotion, never 500 meanwhile, and every acknowledged request is on the new primary exactly once', async () => {
    if (!support.bin) throw new Error(`required in CI: ${support.missing}`);
    pair = await startReplicatedPair(support.bin);
    const url = `postgres://postgres@127.0.0.1:${pair.primary.port},127.0.0.1:${pair.standby.port}/postgres?target_session_attrs=read-write`;
    service = await startInstance('failover', url, {
      MODE: 'sandbox',
      ADMIN_TOKEN: ADMIN,
      DATA_DIR: dataDir,
      SANDBOX_SETTLEMENT_DELAY_MS: '200',
      // Every DB_* bound at its default (5 s connect, 2 s acquire): as users start it.
    });
    const base = service.url;
    const clients = await setUp(base, 4);
    const load = mixedLoad(base, clients);
    try {
      // The load does each kind of work before the failover.
      await waitFor('every kind of request acknowledged before the failover', 60_000, () => {
        const a = load.acknowledged;
        return a.cashOuts.length > 0 && a.chargesPaid.length > 0 && a.refunds.length > 0 && a.deposits > 0 ? true : undefined;
      }, load.summary);
      await new Promise((r) => setTimeout(r, 2_000));

      const killedAt = Date.now();
      await pair.crashPrimary();
      // What an HA manager takes to notice: the service meanwhile has no primary at all.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(service.process.exitCode, 'the service died while the database had no primary').toBeNull();
      await pair.promoteStandby();
      const promotedAt = Date.now();

      // The first write acknowledged after the promotion (a request that started after it).
      const firstWrite = await waitFor('a cash-out answered 2xx after the promotion', 30_000, () =>
        load.acknowledged.cashOuts.find((c) => c.at > promotedAt)?.at,
      load.summary);
      console.log(
        `failover: primary killed, promoted ${promotedAt - killedAt} ms later; first cash-out acknowledged ${firstWrite - promotedAt} ms after the promotion; ` +
          `${load.unavailable.count} answers 503 meanwhile (load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`,
      );
      expect(firstWrite - promotedAt).toBeLessThan(BACK_WITHIN_MS);
      // Keep going on the new primary for a while: every kind of work succeeds there too.
      const acknowledgedBefore = { ...load.acknowledged, cashOuts: load.acknowledged.cashOuts.length, chargesPaid: load.acknowledged.chargesPaid.length, refunds: load.acknowledged.refunds.length };
      await waitFor('every kind of request acknowledged after the promotion', 30_000, () => {
        const a = load.acknowledged;
        return a.cashOuts.length > acknowledgedBefore.cashOuts && a.chargesPaid.length > acknowledgedBefore.chargesPaid && a.refunds.length > acknowledgedBefore.refunds
          ? true
          : undefined;
      }, load.summary);
    } finally {
      await load.stop();
    }

    expect(service.process.exitCode, `the service exited:\n${service.output().slice(-3000)}`).toBeNull();
    expect(load.failures, 'answers other than 2xx, 4xx or 503 (or no answer at all)').toEqual([]);
    expect(load.unavailable.withoutRetryAfter, '503 answers without Retry-After').toBe(0);
    expect(service.lines().filter((l) => l.msg === 'database: connecting to this host from now on').map((l) => l.host)).toContain(`127.0.0.1:${pair.standby.port}`);

    // Through the service: the ledger holds (journals balanced, balances equal postings, none negative).
    const ledger = await waitFor('GET /admin/ledger/check', 20_000, async () => {
      const answer = await call(base, 'GET', '/admin/ledger/check', asAdmin);
      return answer.status === 200 ? answer.json() : undefined;
    });
    expect(ledger).toMatchObject({ ok: true, drift: { count: 0 }, negativeBalances: { count: 0 }, unbalancedJournals: { count: 0 } });

    // Straight on the new primary: every acknowledged request is there exactly once.
    const { acknowledged } = load;
    const newPrimary = pair.standby;
    const cashOuts = await newPrimary.query<{ account_id: number; external_id: string; transaction_id: string }>(
      "SELECT account_id, external_id, transaction_id::text FROM transactions WHERE external_id LIKE 'fo-%' AND external_id NOT LIKE 'fo-charge-%'",
    );
    const byKey = new Map<string, string[]>();
    for (const row of cashOuts) byKey.set(`${row.account_id}/${row.external_id}`, [...(byKey.get(`${row.account_id}/${row.external_id}`) ?? []), row.transaction_id]);
    for (const c of acknowledged.cashOuts) expect(byKey.get(`${c.accountId}/${c.externalId}`), `cash-out ${c.externalId}`).toEqual([c.transactionId]);

    const charges = await newPrimary.query<{ transaction_id: string; status: string; n: string }>(
      'SELECT transaction_id::text, status, count(*) OVER (PARTITION BY transaction_id) AS n FROM transactions WHERE transaction_id = ANY($1::uuid[])',
      [acknowledged.chargesPaid.map((c) => c.transactionId)],
    );
    expect(charges).toHaveLength(acknowledged.chargesPaid.length);
    for (const row of charges) {
      expect(row.n).toBe('1');
      expect(row.status, `charge ${row.transaction_id} was answered paid`).toBe('CONFIRMED');
    }

    const refunds = await newPrimary.query<{ account_id: number; refund_id: string; transaction_id: string }>(
      'SELECT r.account_id, r.refund_id, t.transaction_id::text FROM refunds r JOIN transactions t ON t.id = r.transaction_id WHERE r.refund_id = ANY($1::text[])',
      [acknowledged.refunds.map((r) => r.externalId)],
    );
    expect(refunds).toHaveLength(acknowledged.refunds.length);
    const refundsByKey = new Map(refunds.map((r) => [`${r.account_id}/${r.refund_id}`, r.transaction_id]));
    for (const r of acknowledged.refunds) expect(refundsByKey.get(`${r.accountId}/${r.externalId}`), `refund ${r.externalId}`).toBe(r.transactionId);

    // The notification listener (LISTEN) found the new primary as well.
    await waitFor('a LISTEN connection of the service on the new primary', 20_000, async () => {
      const rows = await newPrimary.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'pix-account-service' AND query LIKE 'LISTEN %'");
      return Number(rows[0]!.n) > 0 ? true : undefined;
    });
    console.log(
      `failover: acknowledged ${acknowledged.cashOuts.length} cash-outs, ${acknowledged.chargesPaid.length} charges paid, ${acknowledged.refunds.length} refunds, ${acknowledged.deposits} deposits`,
    );
  }, 300_000);
});
