import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import { cents, type Cents } from '../domain/money.ts';
import type { DB } from '../db/schema.ts';

type Db = Kysely<DB> | Trx<DB>;

/** At most this many findings of each kind are listed (the counts are always exact). */
const LIST_LIMIT = 100;

export interface LedgerDrift {
  id: number;
  available: Cents;
  blocked: Cents;
  postedAvailable: Cents;
  postedBlocked: Cents;
}

export interface LedgerCheck {
  /** True when every invariant holds. */
  ok: boolean;
  postings: { count: number; total: Cents };
  /** Journals (movements) whose postings do not sum to zero. */
  unbalancedJournals: { count: number; items: Array<{ journalId: string; sum: Cents }> };
  /** Customer accounts whose stored balances differ from the sum of their postings and pending unposted holds. */
  drift: { count: number; items: LedgerDrift[] };
  /** Customer accounts with a negative bucket (the CHECK constraints should make this impossible). */
  negativeBalances: { count: number; items: Array<{ id: number; available: Cents; blocked: Cents }> };
  /** The balance of every system account of the chart (sum of its postings): informative, not a finding. */
  systemAccounts: Array<{ code: string; balance: Cents }>;
}

const toCents = (v: string | number | null) => cents(Number(v ?? 0));

/**
 * Accounts whose balances differ from what the ledger says they are: always empty unless something is
 * broken. What the ledger says is the sum of the account's postings per bucket, with the debits held
 * without postings (`transactions.hold_unposted`, still PENDING: the pending set) moved from
 * `available` to `blocked`. `postedAvailable`/`postedBlocked` report those expected balances.
 */
export async function findLedgerDrift(db: Db, limit?: number): Promise<LedgerDrift[]> {
  const result = await sql<{ id: number; available: string | number; blocked: string | number; posted_available: string | number; posted_blocked: string | number }>`
    SELECT a.id, a.available, a.blocked, e.available AS posted_available, e.blocked AS posted_blocked
      FROM accounts a
      LEFT JOIN (SELECT account_id,
                        SUM(delta) FILTER (WHERE bucket = 'available') AS available,
                        SUM(delta) FILTER (WHERE bucket = 'blocked') AS blocked
                   FROM postings WHERE account_id IS NOT NULL GROUP BY account_id) p ON p.account_id = a.id
      LEFT JOIN (SELECT account_id, SUM(final_amount) AS held
                   FROM transactions WHERE status = 'PENDING' AND hold_unposted GROUP BY account_id) h ON h.account_id = a.id
      CROSS JOIN LATERAL (SELECT COALESCE(p.available, 0) - COALESCE(h.held, 0) AS available,
                                 COALESCE(p.blocked, 0) + COALESCE(h.held, 0) AS blocked) e
     WHERE a.available <> e.available OR a.blocked <> e.blocked
     ORDER BY a.id
     ${limit === undefined ? sql`` : sql`LIMIT ${limit}`}`.execute(db);
  return result.rows.map((r) => ({
    id: Number(r.id),
    available: toCents(r.available),
    blocked: toCents(r.blocked),
    postedAvailable: toCents(r.posted_available),
    postedBlocked: toCents(r.posted_blocked),
  }));
}

/**
 * The ledger's invariants, checked from scratch (tests, the benchmark, GET /admin/ledger/check):
 * every journal sums to zero and so do all postings; every stored customer balance equals its
 * postings, with the pending debits held without postings counted as blocked; no customer balance is negative. Reads in one REPEATABLE READ snapshot when given the
 * pool, so concurrent payments cannot make a consistent ledger look broken.
 */
export async function checkLedger(db: Kysely<DB>): Promise<LedgerCheck> {
  return db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
    const totals = (await sql<{ count: string | number; total: string | number | null }>`SELECT count(*) AS count, SUM(delta) AS total FROM postings`.execute(trx)).rows[0]!;
    const unbalanced = await sql<{ journal_id: string; sum: string | number; n: string | number }>`
      SELECT journal_id, SUM(delta) AS sum, count(*) OVER () AS n FROM postings GROUP BY journal_id HAVING SUM(delta) <> 0
       ORDER BY journal_id LIMIT ${LIST_LIMIT}`.execute(trx);
    const drift = await findLedgerDrift(trx);
    const negative = await sql<{ id: number; available: string | number; blocked: string | number }>`
      SELECT id, available, blocked FROM accounts WHERE available < 0 OR blocked < 0 ORDER BY id`.execute(trx);
    const system = await sql<{ code: string; balance: string | number }>`
      SELECT l.code, COALESCE(SUM(p.delta), 0) AS balance
        FROM ledger_accounts l LEFT JOIN postings p ON p.ledger_account = l.code
       GROUP BY l.code ORDER BY l.code`.execute(trx);
    const unbalancedCount = Number(unbalanced.rows[0]?.n ?? 0);
    const total = toCents(totals.total);
    return {
      ok: total === 0 && unbalancedCount === 0 && drift.length === 0 && negative.rows.length === 0,
      postings: { count: Number(totals.count), total },
      unbalancedJournals: { count: unbalancedCount, items: unbalanced.rows.map((r) => ({ journalId: r.journal_id, sum: toCents(r.sum) })) },
      drift: { count: drift.length, items: drift.slice(0, LIST_LIMIT) },
      negativeBalances: {
        count: negative.rows.length,
        items: negative.rows.slice(0, LIST_LIMIT).map((r) => ({ id: Number(r.id), available: toCents(r.available), blocked: toCents(r.blocked) })),
      },
      systemAccounts: system.rows.map((r) => ({ code: r.code, balance: toCents(r.balance) })),
    };
  });
}
