import type { Kysely, Transaction as Trx } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import { DEBIT_KINDS } from '../../domain/closed-lists.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { Ledger, SystemAccount } from '../../ledger/ledger.ts';
import type { PaymentOrder, PixNetwork } from '../../network/pix-network.ts';
import type { Outbox, OutgoingEvent } from '../../webhooks/outbox.ts';
import { paymentOrderOf, toStepPayload, traceOfPayment, type PaymentStepPayload, type PaymentTarget } from './payment-order.ts';
import { settlementOf } from './origin-settlement.ts';
import type { SettlementHook } from './settlement-hook.ts';
import { PAYMENT_STEPS, registerPaymentSteps, SUBMIT_STEP_JOB, type Outcome } from './payment-steps.ts';

export type { PaymentTarget } from './payment-order.ts';
export { paymentOrderOf } from './payment-order.ts';

export type { SettlementHook } from './settlement-hook.ts';

export type { Outcome } from './payment-steps.ts';

/**
 * A payment's events carry the trace of the request that created it (issue 31 item 4), whoever
 * finishes it (the check step, the network's notice, a group-commit batch run in another request's
 * turn): its webhook deliveries, their retries and resends follow that trace.
 */
function inPaymentTrace(row: TransactionRow, events: OutgoingEvent[]): OutgoingEvent[] {
  const traceId = traceOfPayment(row)?.traceId;
  return traceId ? events.map((event) => (event.traceId ? event : { ...event, traceId })) : events;
}

/**
 * The one settlement path of every outgoing debit (cash-out by key or QR code, direct transfer,
 * refund-in, devolução, split payouts). A payment is a sequence of short steps, each its own
 * transaction, each safe to run twice:
 *   1. admit and hold: the creating service inserts the PENDING row, holds `final_amount` and calls
 *      `start` (or `submitJob` in a batch) in ITS transaction: that schedules the submit step;
 *   2. submit (a step job, no transaction open): the order goes to the network with our
 *      transaction id as its idempotency key; its answer (accepted, rejected, unknown) is recorded;
 *   3. the outcome: a network notice (`onPaymentOutcome`) or the check step asking the network's
 *      status (`paymentStatuses`) settles (blocked -> out, CONFIRMED) or releases (blocked ->
 *      available, ERROR) with a conditional status update, so a second outcome changes nothing,
 *      and runs the settlement rules of the row's origin (origin-settlement.ts, one typed table).
 * On-us payments never reach the network: `finishNow` settles them in the payer's transaction.
 */
export function createSettlement(deps: {
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  scheduler: Scheduler;
  network: PixNetwork;
  outbox: Outbox;
  logger: Logger;
}) {
  /**
   * Settles or releases PENDING debits and runs their origins' hooks; a finished row changes
   * nothing. Locks are taken in the one lock order of every money path (docs/decisions.md, "One
   * lock order"): the rows are locked and finished by one statement; the hooks run in account order
   * (a refund gives its reservation back to its original row); each hook's batch-wide writes follow
   * (the limit counters, in key order, by one statement); and the money of every account moves
   * last, one multi-row statement per direction, with every account of both directions locked first
   * in id order when there are two, so a hot account's row is held only for the end.
   */
  async function finishMany(trx: Trx<DB>, items: Array<{ id: number; outcome: Outcome }>, counter: SystemAccount = deps.network.ledgerAccount): Promise<TransactionRow[]> {
    if (items.length === 0) return [];
    const now = deps.clock.now();
    // One statement moves the rows still PENDING (a finished one changes nothing); one outcome per row.
    const seen = new Set<number>();
    const moves = items.filter((i) => !seen.has(i.id) && seen.add(i.id));
    const finished = await transactionsRepo.finishManyPending(
      trx,
      now,
      moves.map(({ id, outcome }) =>
        outcome.status === 'settled'
          ? { id, status: 'CONFIRMED' as const, endToEndId: outcome.endToEndId, errorCode: null, errorMessage: null, payee: outcome.payee ?? null }
          : { id, status: 'ERROR' as const, endToEndId: null, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage },
      ),
    );
    const inLockOrder = [...finished].sort((a, b) => a.account_id - b.account_id || a.id - b.id);
    const events: OutgoingEvent[] = [];
    const byHook = new Map<SettlementHook, TransactionRow[]>();
    for (const row of inLockOrder) {
      const hook = settlementOf(row.origin);
      events.push(...inPaymentTrace(row, await hook.onFinished(trx, row)));
      byHook.set(hook, [...(byHook.get(hook) ?? []), row]);
    }
    for (const [hook, rows] of byHook) await hook.onBatchFinished?.(trx, rows);
    await deps.outbox.emitMany(trx, events);
    const entry = (row: TransactionRow, reason: string) => ({
      accountId: row.account_id, amount: row.final_amount, transactionId: row.id, reason, counter, fee: row.fee_amount, unposted: row.hold_unposted === true,
    });
    const settled = finished.filter((r) => r.status === 'CONFIRMED').map((r) => entry(r, 'settle'));
    const released = finished.filter((r) => r.status === 'ERROR').map((r) => entry(r, 'release'));
    // Two statements would each lock their own accounts in id order, but not the two sets together.
    const lockedFirst = settled.length > 0 && released.length > 0;
    if (lockedFirst) await accountsRepo.lockInOrder(trx, finished.map((r) => r.account_id));
    for (const [op, entries] of [['settle', settled], ['release', released]] as const) {
      const moved = await deps.ledger[op](trx, entries, { accountsLockedByCaller: lockedFirst });
      const bad = moved.findIndex((m) => !m.ok);
      if (bad >= 0) throw new Error(`${op} of transaction ${entries[bad]!.transactionId}: ${(moved[bad] as { error: string }).error}`);
    }
    return finished;
  }

  /** The submit step's job for a PENDING, held debit. */
  function submitJob(tx: TransactionRow, target: PaymentTarget): { runAt: Date; payload: Record<string, unknown> } {
    return { runAt: deps.clock.now(), payload: { ...toStepPayload(tx.id, paymentOrderOf(tx, target)) } };
  }

  registerPaymentSteps({ db: deps.db, clock: deps.clock, scheduler: deps.scheduler, network: deps.network, logger: deps.logger, finishMany });

  return {
    /** Finishes a PENDING, held on-us debit at once, in the caller's transaction (against `counter`, on-us clearing by default). */
    async finishNow(trx: Trx<DB>, tx: TransactionRow, outcome: Outcome, counter: SystemAccount = 'onus_clearing'): Promise<TransactionRow | undefined> {
      const [finished] = await finishMany(trx, [{ id: tx.id, outcome }], counter);
      return finished;
    },
    /**
     * Announces a debit the admission finished as ERROR without holding anything (an origin with
     * `failWith`): its origin's events, as if the settlement had rejected it; no money moves.
     */
    async announceUnheld(trx: Trx<DB>, tx: TransactionRow): Promise<void> {
      await deps.outbox.emitMany(trx, inPaymentTrace(tx, await settlementOf(tx.origin).onFinished(trx, tx)));
    },
    /** Schedules the submission of a PENDING, held debit, in the caller's transaction (no network call). */
    async start(trx: Kysely<DB> | Trx<DB>, tx: TransactionRow, target: PaymentTarget): Promise<void> {
      const job = submitJob(tx, target);
      await deps.scheduler.schedule(trx, PAYMENT_STEPS.submit, job.runAt, job.payload);
    },
    /**
     * The submit step of a debit about to be stored by a server-side admission, which writes the job
     * itself (with the row's id) in the admitting statement: its kind, attempts and payload.
     */
    submitStep(order: PaymentOrder): { kind: string; maxAttempts: number; payload: Omit<PaymentStepPayload, 'id'> } {
      const { order: serialized } = toStepPayload(0, order);
      return { ...SUBMIT_STEP_JOB, payload: { order: serialized } };
    },
    /**
     * A network notice: the payment with our reference settled or was rejected. Idempotent: a
     * second notice, or one for a payment already finished by the check step, changes nothing.
     */
    async onPaymentOutcome(reference: string, outcome: Outcome): Promise<TransactionRow | undefined> {
      return transact(deps.db, async (trx) => {
        const row = await trx.selectFrom('transactions').select(['id', 'kind']).where('transaction_id', '=', reference).executeTakeFirst();
        if (!row || !(DEBIT_KINDS as readonly string[]).includes(row.kind)) return undefined;
        const [finished] = await finishMany(trx, [{ id: row.id, outcome }]);
        return finished;
      });
    },
  };
}

export type Settlement = ReturnType<typeof createSettlement>;
