import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Cents } from '../../domain/money.ts';
import { nightKey, saoPauloDate } from '../../domain/sao-paulo-time.ts';

type Db = Kysely<DB> | Trx<DB>;

/**
 * Origins whose payouts count against the account's limits (decisions 4.7). The limits are admitted
 * by the one payout admission (payout-admission.ts), under the counters' row locks.
 */
export const LIMITED_ORIGINS = new Set(['cash_out', 'cash_out_qrcode', 'dict']);

/** The windows a payout made at `at` counts in: its São Paulo calendar day, and its night if any. */
export function limitWindows(at: Date): { day: string; night: string | undefined } {
  const night = nightKey(at);
  return { day: `day:${saoPauloDate(at)}`, night: night ? `night:${night}` : undefined };
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
