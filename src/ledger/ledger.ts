import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { Clock } from '../domain/clock.ts';
import { cents, type Cents } from '../domain/money.ts';
import type { DB } from '../db/schema.ts';
import { prepared } from '../db/prepared.ts';
import { fn } from '../db/function-sources.ts';
import type { SystemAccount } from './chart.ts';

export type { SystemAccount } from './chart.ts';

/** One movement of a customer account. `reason` is recorded on the postings (hold, settle, ...). */
export interface LedgerEntry {
  accountId: number;
  amount: Cents;
  transactionId: number | null;
  reason: string;
  /**
   * The debit was held without postings (the admission's holds, `transactions.hold_unposted`): its
   * release posts nothing and its settlement posts from `available`.
   */
  unposted?: boolean;
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

/**
 * hold: available -> blocked; settle: blocked -> counter; release: blocked -> available; credit:
 * counter -> available. The moves themselves are defined once, in `ledger_apply` (src/db/functions/ledger_apply.sql).
 */
export type LedgerOperation = 'hold' | 'settle' | 'release' | 'credit';

export interface ApplyOptions {
  /** The caller already holds the accounts' row locks (taken in id order): skip taking them again. */
  accountsLockedByCaller?: boolean;
}

/**
 * The only code that moves money. Every movement is a journal of balanced postings (sum zero):
 * the customer's buckets against each other (hold, release) or against a system account of the
 * chart (settle, credit). Each operation is one server-side call that updates the customer rows
 * conditionally (never read-then-write) and writes the postings, in the caller's transaction, so
 * balances and postings can never disagree and the CHECK constraints keep customer balances from
 * going negative. Operations take a batch and answer one result per entry, so a group-commit
 * batcher can combine concurrent requests.
 */
export function createLedger(deps: { clock: Clock }) {
  /**
   * The entries in one server-side call (`ledger_apply`, src/db/functions/ledger_apply.sql): each account's sum by one
   * conditional UPDATE, entry by entry where the sum does not fit, and the postings, in one round
   * trip. Results are exactly those of applying the entries one after the other.
   */
  async function applyAll(trx: Db, op: LedgerOperation, entries: Array<LedgerEntry | FlowEntry>, now: Date, lockedByCaller: boolean): Promise<LedgerResult[]> {
    const rows = await sql<{ idx: number; ok: boolean; available: string | number | null; blocked: string | number | null; error: string | null }>`
      ${prepared('ledger_apply')}SELECT idx, ok, available, blocked, error FROM ${fn('ledger_apply')}(${op}, ${JSON.stringify(entries.map(entryJson))}::jsonb, ${now}::timestamptz, ${lockedByCaller})`.execute(trx);
    return rows.rows.map((r) =>
      r.ok
        ? { ok: true as const, available: cents(Number(r.available)), blocked: cents(Number(r.blocked)) }
        : { ok: false as const, error: r.error as Exclude<LedgerResult, { ok: true }>['error'] },
    );
  }

  async function apply(trx: Db, op: LedgerOperation, entries: Array<LedgerEntry | FlowEntry>, options: ApplyOptions = {}): Promise<LedgerResult[]> {
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
    return applyAll(trx, op, entries, deps.clock.now(), options.accountsLockedByCaller === true);
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

/** An entry as `ledger_apply` reads it. */
function entryJson(entry: LedgerEntry | FlowEntry) {
  const flow = entry as FlowEntry;
  return { accountId: entry.accountId, amount: entry.amount, transactionId: entry.transactionId, reason: entry.reason, counter: flow.counter ?? null, fee: flow.fee ?? 0, ...(entry.unposted ? { unposted: true } : {}) };
}

export type Ledger = ReturnType<typeof createLedger>;

/** The invariant check lives next door; re-exported for the callers that used to find it here. */
export { checkLedger, findLedgerDrift, type LedgerCheck } from './ledger-check.ts';
