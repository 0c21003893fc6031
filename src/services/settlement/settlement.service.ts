import type { Kysely, Transaction as Trx } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import type { DictKey } from '../../domain/pix-keys.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { Ledger, SystemAccount } from '../../ledger/ledger.ts';
import type { OutgoingPayment, PixNetwork } from '../../network/pix-network.ts';

export const SETTLEMENT_JOB = 'settlement';

/** What each origin does once its payment settled or was rejected: emit its events, undo its counters. */
export interface SettlementHook {
  onFinished(trx: Trx<DB>, tx: TransactionRow): Promise<void>;
}

/** Where the money goes, beyond what the transaction row says. */
export interface PaymentTarget {
  key?: DictKey | null;
  creditorDocument?: string | null;
  holderDocument?: string | null;
  creditorIspb?: string | null;
  /** Still queued at this instant: rejected with PAYMENT_EXPIRED (POST /dict/pix `expiration`). */
  expiresAt?: Date | null;
}

interface JobPayload {
  id: number;
  key: DictKey | null;
  creditorDocument: string | null;
  holderDocument: string | null;
  creditorIspb: string | null;
  expiresAt: string | null;
}

const EXPIRED = { errorCode: 'PAYMENT_EXPIRED', errorMessage: 'O pagamento expirou antes de ser processado.' };

/**
 * The one settlement path of every outgoing debit (cash-out by key or QR code, direct transfer,
 * refund-in, devolução, MED, split payouts). The creating service holds `final_amount`, inserts the
 * PENDING row and calls `start` in its own transaction; the job then asks the network and settles
 * (blocked -> out, CONFIRMED) or releases (blocked -> available, ERROR) with a conditional status
 * update, so a duplicate job changes nothing, and calls the hook registered for the row's origin.
 */
export function createSettlement(deps: {
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  scheduler: Scheduler;
  network: PixNetwork;
  logger: Logger;
}) {
  const hooks = new Map<string, SettlementHook>();

  function payment(tx: TransactionRow, p: JobPayload): OutgoingPayment {
    return {
      transactionId: tx.id,
      amount: tx.original_amount,
      key: p.key,
      creditorDocument: p.creditorDocument,
      holderDocument: p.holderDocument ?? null,
      creditorIspb: p.creditorIspb,
      scenario: tx.scenario,
      submittedAt: tx.created_at,
    };
  }

  type Outcome = { status: 'settled'; endToEndId: string } | { status: 'rejected'; errorCode: string; errorMessage: string };

  function hookOf(origin: string): SettlementHook {
    const hook = hooks.get(origin);
    if (!hook) throw new Error(`no settlement hook for origin "${origin}"`);
    return hook;
  }

  /**
   * Settles or releases a PENDING debit and runs its origin's hook; a finished row changes nothing.
   * The money moves last, after the hook: the account row is the one every payment of the account
   * contends for, so it is locked for as little of the transaction as possible (and always after
   * the limit counters a hook may touch, the order the payout paths lock them in).
   */
  async function finish(trx: Trx<DB>, tx: TransactionRow, outcome: Outcome, counter: SystemAccount): Promise<TransactionRow | undefined> {
    const now = deps.clock.now();
    const entry = { accountId: tx.account_id, amount: tx.final_amount, transactionId: tx.id, reason: '', counter, fee: tx.fee_amount };
    const finished =
      outcome.status === 'settled'
        ? await transactionsRepo.finishPending(trx, tx.id, { status: 'CONFIRMED', at: now, endToEndId: outcome.endToEndId })
        : await transactionsRepo.finishPending(trx, tx.id, { status: 'ERROR', at: now, endToEndId: null, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage });
    if (!finished) return undefined;
    await hookOf(tx.origin).onFinished(trx, finished);
    if (outcome.status === 'settled') {
      const moved = await deps.ledger.settleOne(trx, { ...entry, reason: 'settle' });
      if (!moved.ok) throw new Error(`settlement of transaction ${tx.id}: ${moved.error}`);
    } else {
      const moved = await deps.ledger.releaseOne(trx, { ...entry, reason: 'release' });
      if (!moved.ok) throw new Error(`release of transaction ${tx.id}: ${moved.error}`);
    }
    return finished;
  }

  /**
   * Many settlement jobs in one go (the scheduler's batch path): the rows locked and finished by
   * one statement each, the hooks, then the money of every account moved by one multi-row update
   * per direction, last, so a hot account's row is held only for the end of the batch.
   * Exactly the effects of running the jobs one by one.
   */
  async function handleMany(trx: Trx<DB>, payloads: JobPayload[]): Promise<void> {
    const ids = [...new Set(payloads.map((p) => p.id))].sort((a, b) => a - b);
    const rows = await transactionsRepo.byIdsForUpdate(trx, ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const now = deps.clock.now();
    const again: Array<{ runAt: Date; payload: Record<string, unknown> }> = [];
    const outcomes: Array<{ tx: TransactionRow; outcome: Outcome }> = [];
    const seen = new Set<number>();
    for (const p of payloads) {
      const tx = byId.get(p.id);
      if (!tx || tx.status !== 'PENDING' || seen.has(tx.id)) continue;
      let outcome = await deps.network.outcome(payment(tx, p));
      const expiresAt = p.expiresAt ? new Date(p.expiresAt) : null;
      if (outcome.status === 'pending') {
        if (expiresAt && now >= expiresAt) {
          outcome = { status: 'rejected', ...EXPIRED };
        } else {
          again.push({ runAt: expiresAt && expiresAt < outcome.checkAgainAt ? expiresAt : outcome.checkAgainAt, payload: { ...p } });
          continue;
        }
      }
      seen.add(tx.id);
      outcomes.push({ tx, outcome });
    }
    const finished = await transactionsRepo.finishManyPending(
      trx,
      now,
      outcomes.map(({ tx, outcome }) =>
        outcome.status === 'settled'
          ? { id: tx.id, status: 'CONFIRMED' as const, endToEndId: outcome.endToEndId, errorCode: null, errorMessage: null }
          : { id: tx.id, status: 'ERROR' as const, endToEndId: null, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage },
      ),
    );
    // Hooks touch the limit counters: in account order, the order admission locks them in.
    const inLockOrder = [...finished].sort((a, b) => a.account_id - b.account_id || a.id - b.id);
    for (const row of inLockOrder) await hookOf(row.origin).onFinished(trx, row);
    const entry = (row: TransactionRow, reason: string) => ({
      accountId: row.account_id, amount: row.final_amount, transactionId: row.id, reason, counter: deps.network.ledgerAccount, fee: row.fee_amount,
    });
    const settled = finished.filter((r) => r.status === 'CONFIRMED').map((r) => entry(r, 'settle'));
    const released = finished.filter((r) => r.status === 'ERROR').map((r) => entry(r, 'release'));
    for (const [op, entries] of [['settle', settled], ['release', released]] as const) {
      const moved = await deps.ledger[op](trx, entries);
      const bad = moved.findIndex((m) => !m.ok);
      if (bad >= 0) throw new Error(`${op} of transaction ${entries[bad]!.transactionId}: ${(moved[bad] as { error: string }).error}`);
    }
    await deps.scheduler.scheduleMany(trx, SETTLEMENT_JOB, again);
  }

  async function handle(trx: Trx<DB>, p: JobPayload): Promise<void> {
    const tx = await transactionsRepo.byIdForUpdate(trx, p.id);
    if (!tx || tx.status !== 'PENDING') return;
    const now = deps.clock.now();
    let outcome = await deps.network.outcome(payment(tx, p));
    const expiresAt = p.expiresAt ? new Date(p.expiresAt) : null;
    if (outcome.status === 'pending') {
      if (expiresAt && now >= expiresAt) {
        outcome = { status: 'rejected', ...EXPIRED };
      } else {
        const next = expiresAt && expiresAt < outcome.checkAgainAt ? expiresAt : outcome.checkAgainAt;
        await deps.scheduler.schedule(trx, SETTLEMENT_JOB, next, { ...p });
        return;
      }
    }
    await finish(trx, tx, outcome, deps.network.ledgerAccount);
  }

  deps.scheduler.register<JobPayload>(SETTLEMENT_JOB, (trx, job) => handle(trx, job.payload), {
    maxAttempts: 20,
    batch: (trx, jobs) => handleMany(trx, jobs.map((j) => j.payload)),
  });

  function jobOf(tx: TransactionRow, target: PaymentTarget): JobPayload {
    return {
      id: tx.id,
      key: target.key ?? null,
      creditorDocument: target.creditorDocument ?? null,
      holderDocument: target.holderDocument ?? null,
      creditorIspb: target.creditorIspb ?? null,
      expiresAt: target.expiresAt ? target.expiresAt.toISOString() : null,
    };
  }

  async function runAtOf(tx: TransactionRow, target: PaymentTarget, p: JobPayload): Promise<Date> {
    const { outcomeAt } = await deps.network.submit(payment(tx, p));
    return target.expiresAt && target.expiresAt < outcomeAt ? target.expiresAt : outcomeAt;
  }

  return {
    /**
     * Finishes a PENDING, held debit at once (on-us payments, which never leave the service), in
     * the caller's transaction, exactly as the job would.
     */
    finishNow: (trx: Trx<DB>, tx: TransactionRow, outcome: Outcome) => finish(trx, tx, outcome, 'onus_clearing'),
    /** Registers what an origin does when its payments finish; one hook per origin. */
    registerHook(origin: string, hook: SettlementHook) {
      if (hooks.has(origin)) throw new Error(`settlement hook for origin "${origin}" registered twice`);
      hooks.set(origin, hook);
    },
    /**
     * Hands a PENDING, held debit to the network and schedules its settlement job, in the caller's
     * transaction. The network's `submit` only tells when the outcome will be known.
     */
    async start(trx: Kysely<DB> | Trx<DB>, tx: TransactionRow, target: PaymentTarget = {}): Promise<void> {
      const p = jobOf(tx, target);
      await deps.scheduler.schedule(trx, SETTLEMENT_JOB, await runAtOf(tx, target, p), { ...p });
    },
    /**
     * The network's answer on when each payment's outcome will be known, before anything is
     * written: a payment the network refuses to take throws here and can be left out of a batch.
     */
    async plan(tx: TransactionRow, target: PaymentTarget = {}): Promise<{ runAt: Date; payload: Record<string, unknown> }> {
      const p = jobOf(tx, target);
      return { runAt: await runAtOf(tx, target, p), payload: { ...p } };
    },
    /** `start` for many payments at once (planned by `plan`): one multi-row insert of their jobs. */
    async startMany(trx: Kysely<DB> | Trx<DB>, jobs: Array<{ runAt: Date; payload: Record<string, unknown> }>): Promise<void> {
      await deps.scheduler.scheduleMany(trx, SETTLEMENT_JOB, jobs);
    },
    /** `startMany` as one INSERT statement (at least one job), to run inside the caller's CTE. */
    startManyStatement(jobs: Array<{ runAt: Date; payload: Record<string, unknown> }>) {
      return deps.scheduler.scheduleManyStatement(SETTLEMENT_JOB, jobs);
    },
  };
}

export type Settlement = ReturnType<typeof createSettlement>;
