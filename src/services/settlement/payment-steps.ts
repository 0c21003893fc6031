import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { PaymentStatus, PixNetwork, SubmitAnswer } from '../../network/pix-network.ts';
import { fromStepPayload, type PaymentStepPayload } from './payment-order.ts';

/** A payment's final word from the network: settled (and to whom, when it says) or refused. */
export type Outcome = Extract<PaymentStatus, { status: 'settled' | 'rejected' }>;

export const PAYMENT_STEPS = {
  /** Hand the order to the network (no transaction open), then record its answer. */
  submit: 'payment.submit',
  /** Ask the network where the payment stands (reconciliation), then record it. */
  check: 'payment.check',
} as const;

/** A step that failed unexpectedly retries for about a day (2 s doubling, at most 5 min), then waits for an operator. */
export const PAYMENT_STEP_MAX_ATTEMPTS = 300;

/** The job a server-side admission writes for a debit it admits (admit_payouts' p_job_kind and p_job_max_attempts). */
export const SUBMIT_STEP_JOB = { kind: PAYMENT_STEPS.submit, maxAttempts: PAYMENT_STEP_MAX_ATTEMPTS } as const;
const RETRY_SOON_MS = 5_000;

type CheckAnswer = PaymentStatus | { status: 'finished' };

/**
 * The two network steps of every outgoing debit. Both call the network with no database
 * transaction open, in batches, and record the answers in one short transaction each:
 *   submit: accepted -> a check at the network's `checkAt` (a notice may finish it first);
 *           rejected -> ERROR and the hold released; unknown -> a check soon (never a blind resubmit);
 *   check:  settled / rejected -> finished; pending -> checked again at `checkAt`;
 *           not_found -> submitted again (the network never got it); unknown -> checked again later.
 * A crash anywhere leaves the claimed job to run again: the network deduplicates by our reference,
 * and finishing is conditional on PENDING.
 */
export function registerPaymentSteps(deps: {
  db: Kysely<DB>;
  clock: Clock;
  scheduler: Scheduler;
  network: PixNetwork;
  logger: Logger;
  finishMany(trx: Trx<DB>, items: Array<{ id: number; outcome: Outcome }>): Promise<TransactionRow[]>;
}) {
  const { scheduler, network, logger } = deps;
  const soon = () => new Date(deps.clock.now().getTime() + RETRY_SOON_MS);

  /** A network that throws instead of answering gave no answer we can trust: unknown, for every order. */
  async function ask<A>(what: string, count: number, call: () => Promise<A[]>): Promise<Array<A | { status: 'unknown'; reason: string; retryAt: Date }>> {
    try {
      const answers = await call();
      if (answers.length !== count) throw new Error(`the network gave ${answers.length} answers for ${count} ${what}`);
      return answers;
    } catch (error) {
      logger.warn({ err: error, count }, `the network did not answer a ${what}; asking again later`);
      return Array.from({ length: count }, () => ({ status: 'unknown' as const, reason: String((error as Error)?.message ?? error), retryAt: soon() }));
    }
  }

  /** Writes every answer of a batch: outcomes finished together, follow-up steps in one insert each. */
  async function record(trx: Trx<DB>, done: Array<{ payload: PaymentStepPayload; answer: SubmitAnswer | CheckAnswer }>): Promise<void> {
    const outcomes: Array<{ id: number; outcome: Outcome }> = [];
    const checks: Array<{ runAt: Date; payload: Record<string, unknown> }> = [];
    const resubmits: Array<{ runAt: Date; payload: Record<string, unknown> }> = [];
    for (const { payload, answer } of done) {
      switch (answer.status) {
        case 'settled':
          outcomes.push({ id: payload.id, outcome: { status: 'settled', endToEndId: answer.endToEndId, ...(answer.payee ? { payee: answer.payee } : {}) } });
          break;
        case 'rejected':
          outcomes.push({ id: payload.id, outcome: { status: 'rejected', errorCode: answer.errorCode, errorMessage: answer.errorMessage } });
          break;
        case 'accepted':
        case 'pending':
          checks.push({ runAt: answer.checkAt, payload: { ...payload } });
          break;
        case 'unknown':
          checks.push({ runAt: answer.retryAt, payload: { ...payload } });
          break;
        case 'not_found':
          resubmits.push({ runAt: deps.clock.now(), payload: { ...payload } });
          break;
        case 'finished':
          break;
      }
    }
    await deps.finishMany(trx, outcomes);
    await scheduler.scheduleMany(trx, PAYMENT_STEPS.check, checks);
    await scheduler.scheduleMany(trx, PAYMENT_STEPS.submit, resubmits);
  }

  scheduler.registerStep<PaymentStepPayload, SubmitAnswer>(PAYMENT_STEPS.submit, {
    maxAttempts: PAYMENT_STEP_MAX_ATTEMPTS,
    call: (jobs) => ask('submission', jobs.length, () => network.submitPayments(jobs.map((j) => fromStepPayload(j.payload)))),
    record: (trx, done) => record(trx, done.map(({ job, answer }) => ({ payload: job.payload, answer }))),
  });

  scheduler.registerStep<PaymentStepPayload, CheckAnswer>(PAYMENT_STEPS.check, {
    maxAttempts: PAYMENT_STEP_MAX_ATTEMPTS,
    async call(jobs) {
      // A notice may have finished some already: only the still-PENDING ones are asked about.
      const ids = jobs.map((j) => j.payload.id);
      const open = new Set(
        (await sql<{ id: number }>`${prepared('pending_transactions_of')}SELECT id FROM transactions WHERE id = ANY (${ids}::bigint[]) AND status = 'PENDING'`.execute(deps.db)).rows.map((r) => Number(r.id)),
      );
      const asked = jobs.filter((j) => open.has(j.payload.id));
      const statuses = asked.length === 0 ? [] : await ask('status query', asked.length, () => network.paymentStatuses(asked.map((j) => fromStepPayload(j.payload))));
      const byJob = new Map(asked.map((j, i) => [j.id, statuses[i]!]));
      return jobs.map((j) => byJob.get(j.id) ?? { status: 'finished' as const });
    },
    record: (trx, done) => record(trx, done.map(({ job, answer }) => ({ payload: job.payload, answer }))),
  });
}
