import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import type { Cents } from '../../domain/money.ts';
import { nightKey, saoPauloDate } from '../../domain/sao-paulo-time.ts';
import { DEBIT_ORIGIN_RULES } from './debit-origins.ts';

type Db = Kysely<DB> | Trx<DB>;

/**
 * Origins whose payouts count against the account's limits (decisions 4.7; DEBIT_ORIGIN_RULES). The limits
 * are admitted by the one debit admission (payout-admission.ts), under the counters' row locks.
 */
export const LIMITED_ORIGINS: ReadonlySet<string> = new Set(Object.entries(DEBIT_ORIGIN_RULES).filter(([, rules]) => rules.limited).map(([origin]) => origin));

/** The windows a payout made at `at` counts in: its São Paulo calendar day, and its night if any. */
export function limitWindows(at: Date): { day: string; night: string | undefined } {
  const night = nightKey(at);
  return { day: `day:${saoPauloDate(at)}`, night: night ? `night:${night}` : undefined };
}

/**
 * Rejected payouts (ERROR) no longer count: each amount leaves the windows it was admitted in. One
 * statement for a whole settlement batch, locking the counters in key order (account, window), the
 * order `admit_payouts` (src/db/functions/admit_payouts.sql) takes them in: payouts admitted on both sides of midnight
 * inside one night count in two day windows and the same night window, and giving them back row by
 * row (day, night, next day) while an admission takes (next day, night) was a deadlock.
 */
export async function releasePayoutLimits(trx: Db, payouts: Array<{ accountId: number; amount: Cents; admittedAt: Date }>): Promise<void> {
  const gives = payouts.flatMap((p) => {
    const windows = limitWindows(p.admittedAt);
    return [windows.day, windows.night].filter((key): key is string => key !== undefined).map((key) => ({ account_id: p.accountId, window_key: key, amount: p.amount }));
  });
  if (gives.length === 0) return;
  await sql`${prepared('release_payout_limits')}WITH gives AS (
      SELECT account_id, window_key, sum(amount)::bigint AS amount
        FROM jsonb_to_recordset(${JSON.stringify(gives)}::jsonb) AS x (account_id bigint, window_key text, amount bigint)
       GROUP BY account_id, window_key),
    locked AS (
      SELECT u.account_id, u.window_key FROM payout_limit_usage u JOIN gives g USING (account_id, window_key)
       ORDER BY u.account_id, u.window_key
         FOR NO KEY UPDATE OF u)
    UPDATE payout_limit_usage u SET total = GREATEST(u.total - g.amount, 0)
      FROM gives g JOIN locked l USING (account_id, window_key)
     WHERE u.account_id = g.account_id AND u.window_key = g.window_key`.execute(trx);
}
