import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import { isRetryableConflict } from './db-faults.ts';
import type { DB } from './schema.ts';

/** Runs of one command before a deadlock or serialization failure is given up (then 503). */
export const CONFLICT_ATTEMPTS = 5;

/**
 * One money command in one transaction, rerun from the start when PostgreSQL aborted it to break
 * a deadlock (40P01) or a serialization conflict (40001): everything it did rolled back, so the
 * rerun is the same command again, not a second one. A short random pause lets the other side
 * finish first. Other failures, and the last conflict, go to the caller (a conflict then answers
 * 503 with Retry-After).
 */
export async function transact<T>(
  db: Kysely<DB>,
  command: (trx: Trx<DB>) => Promise<T>,
  options: {
    attempts?: number;
    /**
     * This transaction's bound on a lock wait, below the session's DB_LOCK_TIMEOUT_MS: what is left
     * of it after waiting for the account's turn (account-bulkhead.ts). One statement more.
     */
    lockTimeoutMs?: number | undefined;
  } = {},
): Promise<T> {
  const attempts = options.attempts ?? CONFLICT_ATTEMPTS;
  const lockTimeoutMs = options.lockTimeoutMs;
  const run =
    lockTimeoutMs === undefined
      ? command
      : async (trx: Trx<DB>) => {
          await sql`SELECT set_config('lock_timeout', ${`${Math.max(1, Math.floor(lockTimeoutMs))}ms`}, true)`.execute(trx);
          return command(trx);
        };
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(run);
    } catch (error) {
      if (!isRetryableConflict(error) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
