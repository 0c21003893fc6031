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

export interface ApplyOptions {
  /** The caller already holds the accounts' row locks (taken in id order): skip taking them again. */
  accountsLockedByCaller?: boolean;
}

/**
 * The only code that moves money. Each operation is one conditional UPDATE (never read-then-write)
 * plus its postings, in the caller's transaction, so balances and postings can never disagree and
 * the CHECK constraints keep balances from going negative. Operations take a batch and answer one
 * result per entry, so a group-commit batcher can combine concurrent requests.
 */
export function createLedger(deps: { clock: Clock }) {
  type Posting = {
    account_id: number;
    transaction_id: number | null;
    bucket: 'available' | 'blocked';
    delta: number;
    reason: string;
    created_at: Date;
  };

  function postingsOf(move: Move, entry: LedgerEntry, now: Date, into: Posting[]) {
    for (const bucket of ['available', 'blocked'] as const) {
      if (move[bucket] !== 0) {
        into.push({ account_id: entry.accountId, transaction_id: entry.transactionId, bucket, delta: move[bucket] * entry.amount, reason: entry.reason, created_at: now });
      }
    }
  }

  /** One entry: one conditional UPDATE. */
  async function applyOne(trx: Db, move: Move, entry: LedgerEntry, now: Date): Promise<LedgerResult> {
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
    if (!row) return { ok: false, error: await whyRefused(trx, entry.accountId, move) };
    return { ok: true, available: row.available as Cents, blocked: row.blocked as Cents };
  }

  /**
   * The entries of each account are summed and applied by ONE statement: a conditional multi-row
   * UPDATE and, in the same statement, the postings of the accounts it moved (several accounts are
   * locked first in id order, unless the caller holds them, so two batches never deadlock). An
   * account whose sum the balance does not cover falls back to entry-by-entry updates, so the
   * per-entry results are exactly those of applying the entries one after the other.
   */
  async function applyAll(trx: Db, move: Move, entries: LedgerEntry[], now: Date, lockedByCaller: boolean): Promise<LedgerResult[]> {
    const byAccount = new Map<number, number[]>();
    entries.forEach((e, i) => {
      const list = byAccount.get(e.accountId);
      if (list) list.push(i);
      else byAccount.set(e.accountId, [i]);
    });
    const ids = [...byAccount.keys()].sort((a, b) => a - b);
    if (ids.length > 1 && !lockedByCaller) {
      await sql`SELECT id FROM accounts WHERE id IN (${sql.join(ids)}) ORDER BY id FOR NO KEY UPDATE`.execute(trx);
    }
    const sums = ids.map((id) => byAccount.get(id)!.reduce((s, i) => s + entries[i]!.amount, 0));
    const values = sql.join(ids.map((id, k) => sql`(${id}::bigint, ${move.available * sums[k]!}::bigint, ${move.blocked * sums[k]!}::bigint)`));
    const planned: Posting[] = [];
    for (const entry of entries) postingsOf(move, entry, now, planned);
    const postingValues = sql.join(planned.map((p) => sql`(${p.account_id}::bigint, ${p.transaction_id}::bigint, ${p.bucket}::text, ${p.delta}::bigint, ${p.reason}::text)`));
    const updated = await sql<{ id: number; available: number; blocked: number }>`
      WITH moved AS (
        UPDATE accounts a SET available = a.available + v.da, blocked = a.blocked + v.db, updated_at = ${now}
          FROM (VALUES ${values}) AS v (id, da, db)
         WHERE a.id = v.id AND a.available + v.da >= 0 AND a.blocked + v.db >= 0
        RETURNING a.id, a.available, a.blocked
      ), posted AS (
        INSERT INTO postings (account_id, transaction_id, bucket, delta, reason, created_at)
        SELECT p.account_id, p.transaction_id, p.bucket, p.delta, p.reason, ${now}::timestamptz
          FROM (VALUES ${postingValues}) AS p (account_id, transaction_id, bucket, delta, reason)
         WHERE p.account_id IN (SELECT id FROM moved)
      )
      SELECT id, available, blocked FROM moved`.execute(trx);
    const after = new Map(updated.rows.map((r) => [Number(r.id), r]));
    const results: LedgerResult[] = new Array(entries.length);
    const late: Posting[] = [];
    for (const id of ids) {
      const indexes = byAccount.get(id)!;
      const final = after.get(id);
      if (final) {
        // The balance after each entry: the final balance minus what the later entries moved.
        let available = Number(final.available);
        let blocked = Number(final.blocked);
        for (let k = indexes.length - 1; k >= 0; k--) {
          const e = entries[indexes[k]!]!;
          results[indexes[k]!] = { ok: true, available: available as Cents, blocked: blocked as Cents };
          available -= move.available * e.amount;
          blocked -= move.blocked * e.amount;
        }
      } else {
        for (const i of indexes) {
          results[i] = await applyOne(trx, move, entries[i]!, now);
          if (results[i]!.ok) postingsOf(move, entries[i]!, now, late);
        }
      }
    }
    if (late.length > 0) await trx.insertInto('postings').values(late).execute();
    return results;
  }

  async function apply(trx: Db, op: LedgerOperation, entries: LedgerEntry[], options: ApplyOptions = {}): Promise<LedgerResult[]> {
    const move = MOVES[op];
    for (const entry of entries) {
      if (!Number.isSafeInteger(entry.amount) || entry.amount <= 0) {
        throw new RangeError(`ledger ${op}: amount must be a positive integer of cents, got ${entry.amount}`);
      }
    }
    if (entries.length === 0) return [];
    return applyAll(trx, move, entries, deps.clock.now(), options.accountsLockedByCaller === true);
  }

  async function whyRefused(trx: Db, accountId: number, move: Move): Promise<Exclude<LedgerResult, { ok: true }>['error']> {
    const exists = await trx.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!exists) return 'ACCOUNT_NOT_FOUND';
    return move.available < 0 ? 'INSUFFICIENT_FUNDS' : 'INSUFFICIENT_BLOCKED';
  }

  const one = (op: LedgerOperation) => async (trx: Db, entry: LedgerEntry) => (await apply(trx, op, [entry]))[0]!;

  return {
    hold: (trx: Db, entries: LedgerEntry[], options?: ApplyOptions) => apply(trx, 'hold', entries, options),
    settle: (trx: Db, entries: LedgerEntry[], options?: ApplyOptions) => apply(trx, 'settle', entries, options),
    release: (trx: Db, entries: LedgerEntry[], options?: ApplyOptions) => apply(trx, 'release', entries, options),
    credit: (trx: Db, entries: LedgerEntry[], options?: ApplyOptions) => apply(trx, 'credit', entries, options),
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
