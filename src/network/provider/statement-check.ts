import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import { cents, centsFromNumber, type Cents } from '../../domain/money.ts';
import type { DB } from '../../db/schema.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { NetworkClearingAccount } from '../../ledger/chart.ts';
import { ProviderAuthRefused, ProviderUnavailable, type ProviderApi } from './provider-api.ts';
import type { BalanceAnswer } from './types.ts';
import { DEBIT_KINDS } from '../../domain/closed-lists.ts';

export const STATEMENT_CHECK = 'provider.statement_check';
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface StatementCheck {
  id: number;
  checkedAt: Date;
  /** The pooled account's gross balance (available + blocked) at the provider; null when it could not be asked. */
  providerBalance: Cents | null;
  /** What our books say the pooled account holds. */
  ourBalance: Cents;
  /** providerBalance - ourBalance; null when the provider could not be asked. */
  difference: Cents | null;
  payoutsAwaiting: number;
  error: string | null;
}

/**
 * The daily statement check: our clearing account against the provider's `GET /api/balance`.
 * What our books say the pooled account holds is everything that came in through the provider less
 * everything that went out through it: minus the balance of our clearing account, minus the MED
 * refunds the provider returned from the pooled account on our behalf (`med_clearing`). It equals
 * the sum of our customers' balances plus fees earned plus money held in suspense. Every check is
 * recorded (provider_statement_checks) for operators; a difference is logged at warn (money still
 * in flight can show as one: the check records how many payments awaited an outcome).
 */
export function createStatementCheck(deps: { db: Kysely<DB>; clock: Clock; api: ProviderApi; clearing: NetworkClearingAccount; logger: Logger }) {
  async function ourBalance(): Promise<Cents> {
    const row = (
      await sql<{ total: string | number | null }>`
        SELECT COALESCE(SUM(delta), 0) AS total FROM postings WHERE ledger_account IN (${deps.clearing}, 'med_clearing')`.execute(deps.db)
    ).rows[0]!;
    return cents(-Number(row.total ?? 0));
  }

  async function payoutsAwaiting(): Promise<number> {
    const row = await deps.db
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'PENDING')
      .where('kind', 'in', DEBIT_KINDS)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Asks the provider (no transaction open), then records the comparison. */
  async function run(): Promise<StatementCheck> {
    let providerBalance: Cents | null = null;
    let error: string | null = null;
    try {
      const answer = await deps.api.call('GET', '/api/balance');
      const gross = answer.status === 200 ? centsFromNumber((answer.body as BalanceAnswer | undefined)?.grossBalance as number) : undefined;
      if (answer.status !== 200) error = `GET /api/balance answered HTTP ${answer.status}`;
      else if (gross === undefined) error = 'GET /api/balance answered no grossBalance in BRL with at most 2 decimals';
      else providerBalance = gross;
    } catch (e) {
      if (!(e instanceof ProviderUnavailable) && !(e instanceof ProviderAuthRefused)) throw e;
      error = e.message;
    }
    const ours = await ourBalance();
    const awaiting = await payoutsAwaiting();
    const checkedAt = deps.clock.now();
    const difference = providerBalance === null ? null : cents(providerBalance - ours);
    const row = await deps.db
      .insertInto('provider_statement_checks')
      .values({ checked_at: checkedAt, provider_balance: providerBalance, our_balance: ours, difference, payouts_awaiting: awaiting, error })
      .returning('id')
      .executeTakeFirstOrThrow();
    const result = { id: Number(row.id), checkedAt, providerBalance, ourBalance: ours, difference, payoutsAwaiting: awaiting, error };
    if (error) deps.logger.warn({ statementCheck: result }, 'statement check: the provider could not be asked for its balance');
    else if (difference !== 0) deps.logger.warn({ statementCheck: result }, 'statement check: the provider balance differs from our books');
    else deps.logger.info({ statementCheck: result }, 'statement check: the provider balance matches our books');
    return result;
  }

  async function last(): Promise<StatementCheck | undefined> {
    const r = await deps.db.selectFrom('provider_statement_checks').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst();
    if (!r) return undefined;
    return {
      id: Number(r.id),
      checkedAt: r.checked_at,
      providerBalance: r.provider_balance === null ? null : cents(Number(r.provider_balance)),
      ourBalance: cents(Number(r.our_balance)),
      difference: r.difference === null ? null : cents(Number(r.difference)),
      payoutsAwaiting: r.payouts_awaiting,
      error: r.error,
    };
  }

  return { run, last, ourBalance };
}

export type StatementChecks = ReturnType<typeof createStatementCheck>;

/** The daily job: a step (it calls the provider), each run scheduling the next one a day later. */
export function registerDailyStatementCheck(deps: { db: Kysely<DB>; clock: Clock; scheduler: Scheduler; checks: StatementChecks }) {
  deps.scheduler.registerStep<Record<string, never>, StatementCheck>(STATEMENT_CHECK, {
    maxAttempts: 50,
    call: async (jobs) => {
      const result = await deps.checks.run();
      return jobs.map(() => result);
    },
    async record(trx, done) {
      // One chain of checks: two instances started together may each have scheduled one.
      const other = await trx.selectFrom('jobs').select('id').where('kind', '=', STATEMENT_CHECK).where('status', '=', 'pending').executeTakeFirst();
      if (other) return;
      // A check the provider could not answer is tried again within the hour.
      const next = done.some((d) => d.answer.error !== null) ? HOUR_MS : DAY_MS;
      await deps.scheduler.schedule(trx, STATEMENT_CHECK, new Date(deps.clock.now().getTime() + next), {});
    },
  });
  return {
    /** On start: one check now unless one is already waiting (each run schedules the next). */
    async ensureScheduled(): Promise<void> {
      const pending = await deps.db.selectFrom('jobs').select('id').where('kind', '=', STATEMENT_CHECK).where('status', '=', 'pending').executeTakeFirst();
      if (!pending) await deps.scheduler.schedule(deps.db, STATEMENT_CHECK, deps.clock.now(), {});
    },
  };
}
