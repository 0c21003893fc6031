import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { Clock } from '../domain/clock.ts';
import type { Cents } from '../domain/money.ts';
import type { DB } from '../db/schema.ts';

/** One movement asked of the ledger. `reason` is recorded on the postings (hold, settle, ...). */
export interface LedgerEntry {
  accountId: number;
  amount: Cents;
  transactionId: number | null;
  reason: string;
}

export type LedgerResult =
  | { ok: true; available: Cents; blocked: Cents }
  | { ok: false; error: 'INSUFFICIENT_FUNDS' | 'INSUFFICIENT_BLOCKED' | 'ACCOUNT_NOT_FOUND' };

type Db = Kysely<DB> | Trx<DB>;

type Move = { available: -1 | 0 | 1; blocked: -1 | 0 | 1 };

/** hold: available -> blocked; settle: blocked -> out; release: blocked -> available; credit: in -> available. */
const MOVES = {
  hold: { available: -1, blocked: 1 },
  settle: { available: 0, blocked: -1 },
  release: { available: 1, blocked: -1 },
  credit: { available: 1, blocked: 0 },
} as const satisfies Record<string, Move>;

export type LedgerOperation = keyof typeof MOVES;

/**
 * The only code that moves money. Each operation is one conditional UPDATE (never read-then-write)
 * plus its postings, in the caller's transaction, so balances and postings can never disagree and
 * the CHECK constraints keep balances from going negative. Operations take a batch and answer one
 * result per entry, so a group-commit batcher can combine concurrent requests.
 */
export function createLedger(deps: { clock: Clock }) {
  async function apply(trx: Db, op: LedgerOperation, entries: LedgerEntry[]): Promise<LedgerResult[]> {
    const move = MOVES[op];
    const results: LedgerResult[] = [];
    const postings: Array<{
      account_id: number;
      transaction_id: number | null;
      bucket: 'available' | 'blocked';
      delta: number;
      reason: string;
      created_at: Date;
    }> = [];
    const now = deps.clock.now();
    for (const entry of entries) {
      if (!Number.isSafeInteger(entry.amount) || entry.amount <= 0) {
        throw new RangeError(`ledger ${op}: amount must be a positive integer of cents, got ${entry.amount}`);
      }
      const x = entry.amount;
      const row = await trx
        .updateTable('accounts')
        .set({
          available: sql`available + ${move.available * x}`,
          blocked: sql`blocked + ${move.blocked * x}`,
          updated_at: now,
        })
        .where('id', '=', entry.accountId)
        .$if(move.available < 0, (q) => q.where('available', '>=', x))
        .$if(move.blocked < 0, (q) => q.where('blocked', '>=', x))
        .returning(['available', 'blocked'])
        .executeTakeFirst();
      if (!row) {
        results.push({ ok: false, error: await whyRefused(trx, entry.accountId, move) });
        continue;
      }
      results.push({ ok: true, available: row.available as Cents, blocked: row.blocked as Cents });
      for (const bucket of ['available', 'blocked'] as const) {
        if (move[bucket] !== 0) {
          postings.push({
            account_id: entry.accountId,
            transaction_id: entry.transactionId,
            bucket,
            delta: move[bucket] * x,
            reason: entry.reason,
            created_at: now,
          });
        }
      }
    }
    if (postings.length > 0) await trx.insertInto('postings').values(postings).execute();
    return results;
  }

  async function whyRefused(trx: Db, accountId: number, move: Move): Promise<Exclude<LedgerResult, { ok: true }>['error']> {
    const exists = await trx.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!exists) return 'ACCOUNT_NOT_FOUND';
    return move.available < 0 ? 'INSUFFICIENT_FUNDS' : 'INSUFFICIENT_BLOCKED';
  }

  const one = (op: LedgerOperation) => async (trx: Db, entry: LedgerEntry) => (await apply(trx, op, [entry]))[0]!;

  return {
    hold: (trx: Db, entries: LedgerEntry[]) => apply(trx, 'hold', entries),
    settle: (trx: Db, entries: LedgerEntry[]) => apply(trx, 'settle', entries),
    release: (trx: Db, entries: LedgerEntry[]) => apply(trx, 'release', entries),
    credit: (trx: Db, entries: LedgerEntry[]) => apply(trx, 'credit', entries),
    holdOne: one('hold'),
    settleOne: one('settle'),
    releaseOne: one('release'),
    creditOne: one('credit'),
  };
}

export type Ledger = ReturnType<typeof createLedger>;

/** Accounts whose balances differ from the sum of their postings: always empty unless something is broken. */
export async function findLedgerDrift(db: Db): Promise<Array<{ id: number; available: number; blocked: number; postedAvailable: number; postedBlocked: number }>> {
  const result = await sql<{ id: number; available: number; blocked: number; posted_available: string | number; posted_blocked: string | number }>`
    SELECT a.id, a.available, a.blocked,
           COALESCE(SUM(p.delta) FILTER (WHERE p.bucket = 'available'), 0) AS posted_available,
           COALESCE(SUM(p.delta) FILTER (WHERE p.bucket = 'blocked'), 0) AS posted_blocked
      FROM accounts a LEFT JOIN postings p ON p.account_id = a.id
     GROUP BY a.id, a.available, a.blocked
    HAVING a.available <> COALESCE(SUM(p.delta) FILTER (WHERE p.bucket = 'available'), 0)
        OR a.blocked <> COALESCE(SUM(p.delta) FILTER (WHERE p.bucket = 'blocked'), 0)`.execute(db);
  return result.rows.map((r) => ({
    id: r.id,
    available: r.available,
    blocked: r.blocked,
    postedAvailable: Number(r.posted_available),
    postedBlocked: Number(r.posted_blocked),
  }));
}
