import type { Logger } from 'pino';
import { traceFrom, withTrace } from '../../observability/trace-context.ts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import type { DB } from '../../db/schema.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { ChargeBook } from './charge-book.ts';
import { centsOf, payerOfPoll } from './mapping.ts';
import { deliverChargePayment, NEVER_STORED_AFTER_MS } from './notice-router.ts';
import { ProviderAuthRefused, ProviderUnavailable, type ProviderApi } from './provider-api.ts';
import type { NetworkSink } from '../pix-network.ts';
import { recordReconciliation } from './provider-state.ts';
import type { TransactionPoll } from './types.ts';

/** The step that asks the provider about a charge no notice has finished (reconciliation of charges). */
export const CHARGE_CHECK = 'provider.charge_check';

/** `n`: how many times this charge was asked about already (the wait doubles each time). */
type Payload = { reference: string; n?: number; /** The trace of the request that created the charge (scheduler.ts). */ trace?: unknown };
type Answer = { next: Date | null; finished: boolean };

/** The longest wait between two questions about one open charge. */
const MAX_INTERVAL_MS = 3_600_000;

/**
 * Charge reconciliation: PROVIDER_RECONCILE_AFTER_S after a charge is registered, and again as long
 * as it stays open, the provider is asked (`GET /api/pix/transaction/{externalId}`, outside any
 * transaction). Paid: credited through the sink exactly as its notice would be (or held in suspense
 * when the charge can no longer take it); ended at the provider: nothing more to ask (our own expiry
 * ends our charge); still waiting: asked again, each wait twice the last (at most an hour), and once
 just after the charge expires (a payment made at the last moment whose notice was lost). A notice
 that arrived first leaves nothing to do.
 */
export function registerChargeChecks(deps: {
  db: Kysely<DB>;
  clock: Clock;
  scheduler: Scheduler;
  api: ProviderApi;
  book: ChargeBook;
  sink: () => NetworkSink;
  checkAfterMs: number;
  logger: Logger;
}) {
  async function checkOne(reference: string, asked: number): Promise<Answer> {
    const now = deps.clock.now();
    const row = await deps.book.get(reference);
    if (!row || row.finished_at) return { next: null, finished: false };
    const wait = Math.min(MAX_INTERVAL_MS, deps.checkAfterMs * 2 ** Math.min(asked, 20));
    const afterExpiry = row.expires_at.getTime() + deps.checkAfterMs;
    const later = new Date(now.getTime() < afterExpiry ? Math.min(now.getTime() + wait, afterExpiry) : now.getTime() + wait);
    let answer;
    try {
      answer = await deps.api.call('GET', `/api/pix/transaction/${encodeURIComponent(reference)}`);
    } catch (error) {
      if (error instanceof ProviderUnavailable) return { next: new Date(now.getTime() + error.retryAfterMs), finished: false };
      if (error instanceof ProviderAuthRefused) return { next: later, finished: false };
      throw error;
    }
    if (answer.status === 404) {
      // Registered, so the provider has it: a 404 this early is the provider catching up.
      if (now.getTime() - row.registered_at.getTime() < NEVER_STORED_AFTER_MS) return { next: later, finished: false };
      deps.logger.warn({ reference }, 'the provider does not know a charge registered with it; no longer asking');
      await deps.book.finish(reference, now);
      return { next: null, finished: false };
    }
    if (answer.status !== 200) return { next: later, finished: false };
    const poll = answer.body as Partial<TransactionPoll>;
    if (poll.status === 'CONFIRMED' && typeof poll.e2eId === 'string' && poll.e2eId !== '') {
      const outcome = await deliverChargePayment(
        deps.sink(),
        deps.book,
        { reference, amount: centsOf(poll.originalAmount, 'originalAmount'), payer: payerOfPoll(poll), endToEndId: poll.e2eId, providerTransactionId: poll.id ?? null },
        now,
      );
      deps.logger.info({ reference, outcome }, 'charge reconciled with the provider');
      return { next: null, finished: true };
    }
    if (poll.status === 'ERROR') {
      await deps.book.finish(reference, now);
      return { next: null, finished: true };
    }
    return { next: later, finished: false };
  }

  deps.scheduler.registerStep<Payload, Answer>(CHARGE_CHECK, {
    maxAttempts: 300,
    async call(jobs) {
      const answers: Answer[] = [];
      for (const job of jobs) {
        try {
          // In the trace of the request that created the charge: the poll and the payment it finds.
          answers.push(await withTrace(traceFrom(job.payload.trace), () => checkOne(job.payload.reference, job.payload.n ?? 0)));
        } catch (error) {
          // One charge's trouble (a charge not stored yet, the database) does not hold back the others.
          deps.logger.warn({ err: error, reference: job.payload.reference }, 'charge check failed; asking again soon');
          answers.push({ next: new Date(deps.clock.now().getTime() + Math.min(deps.checkAfterMs, 30_000)), finished: false });
        }
      }
      await recordReconciliation(deps.db, deps.clock.now(), { kind: 'charges', asked: jobs.length, finished: answers.filter((a) => a.finished).length });
      return answers;
    },
    async record(trx, done) {
      await deps.scheduler.scheduleMany(
        trx,
        CHARGE_CHECK,
        done.filter((d) => d.answer.next !== null).map((d) => ({ runAt: d.answer.next!, payload: { reference: d.job.payload.reference, n: (d.job.payload.n ?? 0) + 1, ...(d.job.payload.trace ? { trace: d.job.payload.trace } : {}) } })),
      );
    },
  });
}
