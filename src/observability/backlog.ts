import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../domain/clock.ts';
import type { DB } from '../db/schema.ts';
import { DEBIT_KINDS } from '../domain/closed-lists.ts';

/** The longest one scrape's backlog query may run (SET LOCAL statement_timeout); past it the scrape answers without it. */
export const BACKLOG_QUERY_MS = 2_000;

/** Payouts: every debit the network settles, cash-outs and devoluções we pay (as GET /admin/network/status counts them). */
const PAYOUT_KINDS = DEBIT_KINDS;
const DAY_MS = 86_400_000;

export interface Backlog {
  /** Jobs due now and not yet run, by kind. */
  jobsWaiting: Map<string, number>;
  /** Deliveries whose last attempt failed and that will be tried again. */
  deliveriesFailing: number;
  payoutsPending: number;
  /** The oldest pending payout's creation (service clock), or null when none is pending. */
  oldestPendingPayoutAt: Date | null;
  /** Money received for no known account, not yet assigned (suspense). */
  suspenseItems: number;
  /** Provider statement checks of the last 24 hours whose balance differed from our books. */
  statementMismatches: number;
}

/**
 * The backlog in ONE statement, each part answered by a partial index (jobs_due,
 * webhook_deliveries_failing, transactions_pending_payouts: migration 984), under its own statement
 * timeout: a scrape never waits long on the database.
 */
export async function readBacklog(db: Kysely<DB>, now: Date): Promise<Backlog> {
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = ${sql.lit(BACKLOG_QUERY_MS)}`.execute(trx);
    const row = (
      await sql<{ jobs: Array<[string, number | string]> | string; failing: number | string; payouts: number | string; oldest: Date | string | null; suspense: number | string; mismatches: number | string }>`
        SELECT
          (SELECT coalesce(json_agg(json_build_array(kind, n)), '[]'::json)
             FROM (SELECT kind, count(*) AS n FROM jobs WHERE status = 'pending' AND run_at <= ${now} GROUP BY kind) waiting) AS jobs,
          (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND attempts > 0) AS failing,
          (SELECT count(*) FROM transactions WHERE status = 'PENDING' AND kind IN (${sql.join(PAYOUT_KINDS)})) AS payouts,
          (SELECT min(created_at) FROM transactions WHERE status = 'PENDING' AND kind IN (${sql.join(PAYOUT_KINDS)})) AS oldest,
          (SELECT count(*) FROM suspense_items WHERE assigned_at IS NULL) AS suspense,
          (SELECT count(*) FROM provider_statement_checks WHERE checked_at > ${new Date(now.getTime() - DAY_MS)} AND difference <> 0) AS mismatches`.execute(trx)
    ).rows[0]!;
    const jobs = typeof row.jobs === 'string' ? (JSON.parse(row.jobs) as Array<[string, number]>) : row.jobs;
    return {
      jobsWaiting: new Map(jobs.map(([kind, n]) => [kind, Number(n)])),
      deliveriesFailing: Number(row.failing),
      payoutsPending: Number(row.payouts),
      oldestPendingPayoutAt: row.oldest === null ? null : new Date(row.oldest),
      suspenseItems: Number(row.suspense),
      statementMismatches: Number(row.mismatches),
    };
  });
}

/** The service's version: package.json beside src/ (tsx) or dist/ (the compiled start and the image). */
export function serviceVersion(): string {
  try {
    return String(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/**
 * The backlog gauges and build_info on `registry`, read at scrape time. With WORKERS > 1 the primary
 * gathers every worker's registry (metrics-cluster.ts) and sums gauges by default: every worker reads
 * the same rows, so these take the largest reading (`max`) and build_info the first, never N times one.
 * A failed or slow read makes that scrape's backlog gauges NaN (unknown: never a stale or made-up
 * value; jobs_waiting then has one series, kind="unknown") and is counted in
 * metrics_backlog_errors_total: the rest of /metrics still answers.
 */
export function registerBacklogMetrics(
  registry: Registry,
  deps: {
    db: Kysely<DB>;
    clock: Clock;
    logger: Logger;
    /** Every job kind this instance runs: each has a jobs_waiting series from the start. */
    jobKinds?: () => string[];
    /** The provider's circuit breaker refuses calls now (always false without a provider). */
    circuitOpen?: () => boolean;
  },
) {
  const errors = new Counter({ name: 'metrics_backlog_errors_total', help: 'Scrapes whose backlog query failed or ran out of time', registers: [registry] });
  let pending: Promise<Backlog | undefined> | undefined;
  /**
   * One read per scrape, shared by the gauges: a scrape calls every collect() in one synchronous pass
   * (prom-client's Registry), so the read is forgotten at the next microtask and a later scrape reads again.
   */
  const read = () => {
    if (!pending) {
      pending = readBacklog(deps.db, deps.clock.now()).catch((error: unknown) => {
        errors.inc();
        deps.logger.warn({ err: error }, 'metrics: the backlog could not be read; this scrape reports it as NaN');
        return undefined;
      });
      queueMicrotask(() => (pending = undefined));
    }
    return pending;
  };
  const seenKinds = new Set<string>();

  new Gauge({
    name: 'jobs_waiting',
    help: 'Jobs due now and not yet run, by kind (a growing number: the scheduler is not keeping up, or a dependency is down)',
    labelNames: ['kind'] as const,
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      const backlog = await read();
      if (!backlog) return void this.set({ kind: 'unknown' }, NaN);
      for (const kind of deps.jobKinds?.() ?? []) seenKinds.add(kind);
      for (const kind of backlog.jobsWaiting.keys()) seenKinds.add(kind);
      // A kind once seen reads 0 when its queue is empty, rather than vanishing.
      for (const kind of seenKinds) this.set({ kind }, backlog.jobsWaiting.get(kind) ?? 0);
    },
  });
  const single = (name: string, help: string, value: (b: Backlog) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      aggregator: 'max',
      async collect() {
        const backlog = await read();
        this.set(backlog ? value(backlog) : NaN);
      },
    });
  single('webhook_deliveries_failing', 'Webhook deliveries whose last attempt failed and that will be tried again', (b) => b.deliveriesFailing);
  single('payouts_pending', 'Payouts (cash-outs, devolucoes) waiting for the network\'s outcome', (b) => b.payoutsPending);
  single('payouts_oldest_pending_seconds', 'Age in seconds of the oldest payout waiting for the network\'s outcome (0 when none)', (b) =>
    b.oldestPendingPayoutAt === null ? 0 : Math.max(0, (deps.clock.now().getTime() - b.oldestPendingPayoutAt.getTime()) / 1000),
  );
  single('suspense_items', 'Money received for no known account and not yet assigned to one (suspense items open)', (b) => b.suspenseItems);
  single('provider_statement_mismatches', 'Provider statement checks of the last 24 hours whose provider balance differed from our books', (b) => b.statementMismatches);
  new Gauge({
    name: 'provider_circuit_open',
    help: 'The PIX provider circuit breaker refuses calls now (1) or lets them through (0; always 0 without a provider)',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(deps.circuitOpen?.() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'build_info',
    help: 'The running service\'s version (always 1)',
    labelNames: ['version'] as const,
    registers: [registry],
    aggregator: 'first',
  }).set({ version: serviceVersion() }, 1);
}
