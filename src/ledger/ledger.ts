import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { Clock } from '../domain/clock.ts';
import { cents, type Cents } from '../domain/money.ts';
import type { DB } from '../db/schema.ts';
import type { SystemAccount } from './chart.ts';

export type { SystemAccount } from './chart.ts';

/** One movement of a customer account. `reason` is recorded on the postings (hold, settle, ...). */
export interface LedgerEntry {
  accountId: number;
  amount: Cents;
  transactionId: number | null;
  reason: string;
}

/**
 * A movement that enters or leaves the customer: money comes from (credit) or goes to (settle)
 * `counter`. `fee` is the part that goes to fee revenue instead: a settle of `amount` sends
 * `amount - fee` to the counter; a credit of `amount` (net) takes `amount + fee` from the counter.
 */
export interface FlowEntry extends LedgerEntry {
  counter: SystemAccount;
  fee?: Cents;
}

export type LedgerResult =
  | { ok: true; available: Cents; blocked: Cents }
  | { ok: false; error: 'INSUFFICIENT_FUNDS' | 'INSUFFICIENT_BLOCKED' | 'ACCOUNT_NOT_FOUND' };

type Db = Kysely<DB> | Trx<DB>;

/** How the customer's buckets move, and which way money crosses to the system side (+1: to it). */
type Move = { available: -1 | 0 | 1; blocked: -1 | 0 | 1; system: -1 | 0 | 1 };

/** hold: available -> blocked; settle: blocked -> counter; release: blocked -> available; credit: counter -> available. */
const MOVES = {
  hold: { available: -1, blocked: 1, system: 0 },
  settle: { available: 0, blocked: -1, system: 1 },
  release: { available: 1, blocked: -1, system: 0 },
  credit: { available: 1, blocked: 0, system: -1 },
} as const satisfies Record<string, Move>;

export type LedgerOperation = keyof typeof MOVES;

export interface ApplyOptions {
  /** The caller already holds the accounts' row locks (taken in id order): skip taking them again. */
  accountsLockedByCaller?: boolean;
}

/** A posting planned for an entry; `owner` is the customer account whose update must succeed for it to be written. */
type Posting = {
  owner: number;
  account_id: number | null;
  bucket: 'available' | 'blocked' | null;
  ledger_account: SystemAccount | null;
  transaction_id: number | null;
  delta: Cents;
  reason: string;
  journal_id: string;
};

/** The balanced postings of one entry (one journal): they sum to zero by construction. */
function journalOf(move: Move, entry: LedgerEntry | FlowEntry, into: Posting[]): void {
  const journal_id = randomUUID();
  const base = { owner: entry.accountId, transaction_id: entry.transactionId, reason: entry.reason, journal_id };
  const add = (side: Pick<Posting, 'account_id' | 'bucket' | 'ledger_account'>, delta: number) => {
    if (delta !== 0) into.push({ ...base, ...side, delta: cents(delta) });
  };
  add({ account_id: entry.accountId, bucket: 'available', ledger_account: null }, move.available * entry.amount);
  add({ account_id: entry.accountId, bucket: 'blocked', ledger_account: null }, move.blocked * entry.amount);
  if (move.system === 0) return;
  const { counter, fee = 0 } = entry as FlowEntry;
  // settle: the customer gives `amount`, split between fee revenue and the counter;
  // credit: the customer gets `amount` and fee revenue `fee`, both paid by the counter.
  add({ account_id: null, bucket: null, ledger_account: 'fee_revenue' }, fee);
  add({ account_id: null, bucket: null, ledger_account: counter }, move.system === 1 ? entry.amount - fee : -(entry.amount + fee));
}

/**
 * The only code that moves money. Every movement is a journal of balanced postings (sum zero):
 * the customer's buckets against each other (hold, release) or against a system account of the
 * chart (settle, credit). Each operation is one conditional UPDATE of the customer rows (never
 * read-then-write) that, in the same statement, writes the postings, in the caller's transaction,
 * so balances and postings can never disagree and the CHECK constraints keep customer balances
 * from going negative. Operations take a batch and answer one result per entry, so a group-commit
 * batcher can combine concurrent requests.
 */
export function createLedger(deps: { clock: Clock }) {
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
    return { ok: true, available: row.available, blocked: row.blocked };
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
    const journals: Posting[][] = entries.map((entry) => {
      const list: Posting[] = [];
      journalOf(move, entry, list);
      return list;
    });
    const planned = journals.flat();
    const moved = sql`UPDATE accounts a SET available = a.available + v.da, blocked = a.blocked + v.db, updated_at = ${now}
          FROM (VALUES ${values}) AS v (id, da, db)
         WHERE a.id = v.id AND a.available + v.da >= 0 AND a.blocked + v.db >= 0
        RETURNING a.id, a.available, a.blocked`;
    const updated =
      planned.length === 0
        ? await sql<{ id: number; available: Cents; blocked: Cents }>`${moved}`.execute(trx)
        : await sql<{ id: number; available: Cents; blocked: Cents }>`
      WITH moved AS (${moved}), posted AS (
        INSERT INTO postings (account_id, bucket, ledger_account, transaction_id, delta, reason, journal_id, created_at)
        SELECT p.account_id, p.bucket, p.ledger_account, p.transaction_id, p.delta, p.reason, p.journal_id, ${now}::timestamptz
          FROM (VALUES ${sql.join(planned.map(postingValue))}) AS p (owner, account_id, bucket, ledger_account, transaction_id, delta, reason, journal_id)
         WHERE p.owner IN (SELECT id FROM moved)
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
          results[indexes[k]!] = { ok: true, available: cents(available), blocked: cents(blocked) };
          available -= move.available * e.amount;
          blocked -= move.blocked * e.amount;
        }
      } else {
        for (const i of indexes) {
          results[i] = await applyOne(trx, move, entries[i]!, now);
          if (results[i]!.ok) late.push(...journals[i]!);
        }
      }
    }
    if (late.length > 0) {
      await trx
        .insertInto('postings')
        .values(late.map(({ owner: _owner, ...p }) => ({ ...p, created_at: now })))
        .execute();
    }
    return results;
  }

  async function apply(trx: Db, op: LedgerOperation, entries: Array<LedgerEntry | FlowEntry>, options: ApplyOptions = {}): Promise<LedgerResult[]> {
    const move = MOVES[op];
    for (const entry of entries) {
      const fee = (entry as FlowEntry).fee ?? 0;
      // A credit may be all fee (a charge whose cash-in fee equals its amount): nothing reaches the customer.
      const min = op === 'credit' && fee > 0 ? 0 : 1;
      if (!Number.isSafeInteger(entry.amount) || entry.amount < min) {
        throw new RangeError(`ledger ${op}: amount must be a positive integer of cents, got ${entry.amount}`);
      }
      if (!Number.isSafeInteger(fee) || fee < 0 || (op === 'settle' && fee > entry.amount)) {
        throw new RangeError(`ledger ${op}: fee must be an integer of cents between 0 and the amount, got ${fee}`);
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

  const first = async (results: Promise<LedgerResult[]>) => (await results)[0]!;

  /**
   * Money between two system accounts, no customer involved (a PIX the provider received for the
   * pooled account that names no charge: network clearing -> suspense): one journal of two postings.
   */
  async function transfer(trx: Db, entry: { from: SystemAccount; to: SystemAccount; amount: Cents; transactionId: number | null; reason: string }): Promise<void> {
    if (!Number.isSafeInteger(entry.amount) || entry.amount < 1) throw new RangeError(`ledger transfer: amount must be a positive integer of cents, got ${entry.amount}`);
    if (entry.from === entry.to) throw new RangeError('ledger transfer: from and to must differ');
    const base = { account_id: null, bucket: null, transaction_id: entry.transactionId, reason: entry.reason, journal_id: randomUUID(), created_at: deps.clock.now() };
    await trx
      .insertInto('postings')
      .values([
        { ...base, ledger_account: entry.from, delta: cents(-entry.amount) },
        { ...base, ledger_account: entry.to, delta: entry.amount },
      ])
      .execute();
  }

  return {
    hold: (trx: Db, entries: LedgerEntry[], options?: ApplyOptions) => apply(trx, 'hold', entries, options),
    settle: (trx: Db, entries: FlowEntry[], options?: ApplyOptions) => apply(trx, 'settle', entries, options),
    release: (trx: Db, entries: LedgerEntry[], options?: ApplyOptions) => apply(trx, 'release', entries, options),
    credit: (trx: Db, entries: FlowEntry[], options?: ApplyOptions) => apply(trx, 'credit', entries, options),
    holdOne: (trx: Db, entry: LedgerEntry) => first(apply(trx, 'hold', [entry])),
    settleOne: (trx: Db, entry: FlowEntry) => first(apply(trx, 'settle', [entry])),
    releaseOne: (trx: Db, entry: LedgerEntry) => first(apply(trx, 'release', [entry])),
    creditOne: (trx: Db, entry: FlowEntry) => first(apply(trx, 'credit', [entry])),
    transfer,
  };
}

function postingValue(p: Posting) {
  return sql`(${p.owner}::bigint, ${p.account_id}::bigint, ${p.bucket}::text, ${p.ledger_account}::text, ${p.transaction_id}::bigint, ${p.delta}::bigint, ${p.reason}::text, ${p.journal_id}::uuid)`;
}

export type Ledger = ReturnType<typeof createLedger>;

/** The invariant check lives next door; re-exported for the callers that used to find it here. */
export { checkLedger, findLedgerDrift, type LedgerCheck } from './ledger-check.ts';
