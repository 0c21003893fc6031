import { toBrlNumber } from '../../domain/money.ts';
import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import { nightKey, saoPauloDate } from '../../domain/sao-paulo-time.ts';

type Db = Kysely<DB> | Trx<DB>;

/** Origins whose payouts count against the account's limits (decisions 4.7). */
export const LIMITED_ORIGINS = new Set(['cash_out', 'cash_out_qrcode', 'dict']);

/** The windows a payout made at `at` counts in: its São Paulo calendar day, and its night if any. */
export function limitWindows(at: Date): { day: string; night: string | undefined } {
  const night = nightKey(at);
  return { day: `day:${saoPauloDate(at)}`, night: night ? `night:${night}` : undefined };
}

async function add(db: Db, accountId: number, windowKey: string, amount: Cents, limit: number): Promise<boolean> {
  if (amount > limit) return false;
  // One statement: the row lock of the upsert serialises concurrent payouts of one account and
  // window, so the total can never pass the limit (no read-then-write).
  const result = await sql<{ total: number }>`
    INSERT INTO payout_limit_usage (account_id, window_key, total) VALUES (${accountId}, ${windowKey}, ${amount})
    ON CONFLICT (account_id, window_key) DO UPDATE SET total = payout_limit_usage.total + EXCLUDED.total
     WHERE payout_limit_usage.total + EXCLUDED.total <= ${limit}
    RETURNING total`.execute(db);
  return result.rows.length === 1;
}

/**
 * Admits a payout of `amount` (the original amount, PENDING and CONFIRMED payouts count) against
 * the per-transaction, daily and night limits, or throws the limit's code. Runs in the caller's
 * transaction, so a payout refused later (balance) gives its share back by rolling back.
 */
export async function admitPayout(
  trx: Db,
  account: { id: number; limit_per_transaction: Cents; limit_daily: Cents; limit_nightly: Cents },
  amount: Cents,
  at: Date,
): Promise<void> {
  if (amount > account.limit_per_transaction) {
    throw new DomainError('PIX_TRANSACTION_LIMIT_EXCEEDED', { limit: toBrlNumber(account.limit_per_transaction) });
  }
  const windows = limitWindows(at);
  if (!(await add(trx, account.id, windows.day, amount, account.limit_daily))) {
    throw new DomainError('PIX_DAILY_LIMIT_EXCEEDED', { limit: toBrlNumber(account.limit_daily) });
  }
  if (windows.night && !(await add(trx, account.id, windows.night, amount, account.limit_nightly))) {
    throw new DomainError('PIX_NIGHT_LIMIT_EXCEEDED', { limit: toBrlNumber(account.limit_nightly) });
  }
}

/** A rejected payout (ERROR) no longer counts: its amount leaves the windows it was admitted in. */
export async function releasePayoutLimits(trx: Db, accountId: number, amount: Cents, admittedAt: Date): Promise<void> {
  const windows = limitWindows(admittedAt);
  for (const key of [windows.day, windows.night]) {
    if (!key) continue;
    await sql`UPDATE payout_limit_usage SET total = GREATEST(total - ${amount}, 0)
               WHERE account_id = ${accountId} AND window_key = ${key}`.execute(trx);
  }
}
