import type { Kysely, Transaction as Trx } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import type { Cents } from '../../domain/money.ts';
import type { DictKey } from '../../domain/pix-keys.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { Ledger } from '../../ledger/ledger.ts';
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
      amount: tx.original_amount as Cents,
      key: p.key,
      creditorDocument: p.creditorDocument,
      holderDocument: p.holderDocument ?? null,
      creditorIspb: p.creditorIspb,
      scenario: tx.scenario,
      submittedAt: tx.created_at,
    };
  }

  /** Settles or releases a PENDING debit and runs its origin's hook; a finished row changes nothing. */
  async function finish(
    trx: Trx<DB>,
    tx: TransactionRow,
    outcome: { status: 'settled'; endToEndId: string } | { status: 'rejected'; errorCode: string; errorMessage: string },
  ): Promise<TransactionRow | undefined> {
    const now = deps.clock.now();
    const entry = { accountId: tx.account_id, amount: tx.final_amount as Cents, transactionId: tx.id, reason: '' };
    let finished: TransactionRow | undefined;
    if (outcome.status === 'settled') {
      finished = await transactionsRepo.finishPending(trx, tx.id, { status: 'CONFIRMED', at: now, endToEndId: outcome.endToEndId });
      if (!finished) return undefined;
      const moved = await deps.ledger.settleOne(trx, { ...entry, reason: 'settle' });
      if (!moved.ok) throw new Error(`settlement of transaction ${tx.id}: ${moved.error}`);
    } else {
      finished = await transactionsRepo.finishPending(trx, tx.id, {
        status: 'ERROR',
        at: now,
        endToEndId: null,
        errorCode: outcome.errorCode,
        errorMessage: outcome.errorMessage,
      });
      if (!finished) return undefined;
      const moved = await deps.ledger.releaseOne(trx, { ...entry, reason: 'release' });
      if (!moved.ok) throw new Error(`release of transaction ${tx.id}: ${moved.error}`);
    }
    const hook = hooks.get(tx.origin);
    if (!hook) throw new Error(`no settlement hook for origin "${tx.origin}"`);
    await hook.onFinished(trx, finished);
    return finished;
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
    await finish(trx, tx, outcome);
  }

  deps.scheduler.register<JobPayload>(SETTLEMENT_JOB, (trx, job) => handle(trx, job.payload), { maxAttempts: 20 });

  return {
    /**
     * Finishes a PENDING, held debit at once (on-us payments, which never leave the service), in
     * the caller's transaction, exactly as the job would.
     */
    finishNow: finish,
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
      const p: JobPayload = {
        id: tx.id,
        key: target.key ?? null,
        creditorDocument: target.creditorDocument ?? null,
        holderDocument: target.holderDocument ?? null,
        creditorIspb: target.creditorIspb ?? null,
        expiresAt: target.expiresAt ? target.expiresAt.toISOString() : null,
      };
      const { outcomeAt } = await deps.network.submit(payment(tx, p));
      const runAt = target.expiresAt && target.expiresAt < outcomeAt ? target.expiresAt : outcomeAt;
      await deps.scheduler.schedule(trx, SETTLEMENT_JOB, runAt, { ...p });
    },
  };
}

export type Settlement = ReturnType<typeof createSettlement>;
