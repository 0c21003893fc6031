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

const SUBMIT = 'payment.submit';

export const PAYMENT_STEPS = {
  /** Hand the order to the network (no transaction open), then record its answer. */
  submit: SUBMIT,
  /**
   * `submit` for the payouts one admission batch admitted together: one job row for the batch
   * (admit_payouts writes it as its p_job_kind + 's'; a payout admitted alone keeps `submit`).
   */
  submits: `${SUBMIT}s` as const,
  /** Ask the network where the payment stands (reconciliation), then record it. */
  check: 'payment.check',
  /**
   * `check` for several payments whose answers asked for it at the same instant (the payouts of one
   * admission batch, submitted together): one job row for them all instead of one each (issue 23:
   * a job row costs an insert, a claim and a delete, with their index entries, per payment). A kind
   * of its own, so an older instance, which does not know it, never claims it.
   */
  checks: 'payment.checks',
} as const;

/** A step that failed unexpectedly retries for about a day (2 s doubling, at most 5 min), then waits for an operator. */
export const PAYMENT_STEP_MAX_ATTEMPTS = 300;

/**
 * The job a server-side admission writes for a debit it admits (admit_payouts' p_job_kind and
 * p_job_max_attempts); for several admitted at once it writes one job of kind `kind + 's'`.
 */
export const SUBMIT_STEP_JOB = { kind: PAYMENT_STEPS.submit, maxAttempts: PAYMENT_STEP_MAX_ATTEMPTS } as const;
const RETRY_SOON_MS = 5_000;

type CheckAnswer = PaymentStatus | { status: 'finished' };
/** A `payment.submits` or `payment.checks` job's payload: its payments, each as a job of one would carry it. */
interface PaymentsPayload {
  payments: PaymentStepPayload[];
}

/**
 * The two network steps of every outgoing debit. Both call the network with no database
 * transaction open, in batches, and record the answers in one short transaction each:
 *   submit: accepted -> a check at the network's `checkAt` (a notice may finish it first);
 *           rejected -> ERROR and the hold released; unknown -> a check soon (never a blind resubmit);
 *   check:  settled / rejected -> finished; pending -> checked again at `checkAt`;
 *           not_found -> submitted again (the network never got it); unknown -> checked again later.
 * The payouts one admission batch admits are one `payment.submits` job, and the checks a batch of
 * answers asks for at one instant one `payment.checks` job (a payment alone keeps its
 * `payment.submit` or `payment.check` job); their answers are recorded as each payment's own would be.
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
    // One check job per instant: the payments asked about at the same time share one row.
    const byInstant = new Map<number, Array<Record<string, unknown>>>();
    for (const check of checks) {
      const at = check.runAt.getTime();
      byInstant.set(at, [...(byInstant.get(at) ?? []), check.payload]);
    }
    const groups = [...byInstant].map(([at, payloads]) => ({ runAt: new Date(at), payloads }));
    await scheduler.scheduleMany(trx, PAYMENT_STEPS.check, groups.filter((g) => g.payloads.length === 1).map((g) => ({ runAt: g.runAt, payload: g.payloads[0]! })));
    await scheduler.scheduleMany(trx, PAYMENT_STEPS.checks, groups.filter((g) => g.payloads.length > 1).map((g) => ({ runAt: g.runAt, payload: { payments: g.payloads } })));
    await scheduler.scheduleMany(trx, PAYMENT_STEPS.submit, resubmits);
  }

  /**
   * The answers of many payments carried by few jobs (`payment.submits`, `payment.checks`): recorded
   * together; if that fails, each payment alone, so one whose recording keeps failing cannot hold
   * back the others of its job (as one job per payment could not). Each that fails alone goes on as
   * a `payment.check` job of its own, soon, retried and given up on like any step job (a check, not
   * a second submission: the network may have the payment already, and a check that finds nothing
   * submits it again).
   */
  async function recordApart(trx: Trx<DB>, done: Array<{ payload: PaymentStepPayload; answer: SubmitAnswer | CheckAnswer }>): Promise<void> {
    await sql`SAVEPOINT payment_checks`.execute(trx);
    try {
      await record(trx, done);
      await sql`RELEASE SAVEPOINT payment_checks`.execute(trx);
      return;
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT payment_checks`.execute(trx);
      logger.warn({ err: error, payments: done.length }, 'recording the answers of a batch of checks failed; recording each payment alone');
    }
    const apart: Array<{ runAt: Date; payload: Record<string, unknown> }> = [];
    for (const item of done) {
      await sql`SAVEPOINT payment_check`.execute(trx);
      try {
        await record(trx, [item]);
        await sql`RELEASE SAVEPOINT payment_check`.execute(trx);
      } catch (error) {
        await sql`ROLLBACK TO SAVEPOINT payment_check`.execute(trx);
        logger.warn({ err: error, transactionId: item.payload.id }, 'recording the answer of a check failed; it goes on as a check job of its own');
        apart.push({ runAt: soon(), payload: { ...item.payload } });
      }
    }
    await scheduler.scheduleMany(trx, PAYMENT_STEPS.check, apart);
  }

  /** Where each payment stands: only the still-PENDING ones are asked about (a notice may have finished some already). */
  async function statusesOf(payments: PaymentStepPayload[]): Promise<CheckAnswer[]> {
    const ids = payments.map((p) => p.id);
    const open = new Set(
      (await sql<{ id: number }>`${prepared('pending_transactions_of')}SELECT id FROM transactions WHERE id = ANY (${ids}::bigint[]) AND status = 'PENDING'`.execute(deps.db)).rows.map((r) => Number(r.id)),
    );
    const asked = payments.filter((p) => open.has(p.id));
    const statuses = asked.length === 0 ? [] : await ask('status query', asked.length, () => network.paymentStatuses(asked.map((p) => fromStepPayload(p))));
    let next = 0;
    return payments.map((p) => (open.has(p.id) ? statuses[next++]! : { status: 'finished' as const }));
  }

  scheduler.registerStep<PaymentStepPayload, SubmitAnswer>(PAYMENT_STEPS.submit, {
    maxAttempts: PAYMENT_STEP_MAX_ATTEMPTS,
    call: (jobs) => ask('submission', jobs.length, () => network.submitPayments(jobs.map((j) => fromStepPayload(j.payload)))),
    record: (trx, done) => record(trx, done.map(({ job, answer }) => ({ payload: job.payload, answer }))),
  });

  scheduler.registerStep<PaymentStepPayload, CheckAnswer>(PAYMENT_STEPS.check, {
    maxAttempts: PAYMENT_STEP_MAX_ATTEMPTS,
    call: (jobs) => statusesOf(jobs.map((j) => j.payload)),
    record: (trx, done) => record(trx, done.map(({ job, answer }) => ({ payload: job.payload, answer }))),
  });

  // One answer per job: the list of its payments' answers, in its payments' order.
  scheduler.registerStep<PaymentsPayload, SubmitAnswer[]>(PAYMENT_STEPS.submits, {
    maxAttempts: PAYMENT_STEP_MAX_ATTEMPTS,
    async call(jobs) {
      const payments = jobs.flatMap((j) => j.payload.payments);
      const answers = await ask('submission', payments.length, () => network.submitPayments(payments.map((p) => fromStepPayload(p))));
      let next = 0;
      return jobs.map((j) => j.payload.payments.map(() => answers[next++]!));
    },
    record: (trx, done) => recordApart(trx, done.flatMap(({ job, answer }) => job.payload.payments.map((payload, i) => ({ payload, answer: answer[i]! })))),
  });

  scheduler.registerStep<PaymentsPayload, CheckAnswer[]>(PAYMENT_STEPS.checks, {
    maxAttempts: PAYMENT_STEP_MAX_ATTEMPTS,
    async call(jobs) {
      const answers = await statusesOf(jobs.flatMap((j) => j.payload.payments));
      let next = 0;
      return jobs.map((j) => j.payload.payments.map(() => answers[next++]!));
    },
    record: (trx, done) => recordApart(trx, done.flatMap(({ job, answer }) => job.payload.payments.map((payload, i) => ({ payload, answer: answer[i]! })))),
  });
}
