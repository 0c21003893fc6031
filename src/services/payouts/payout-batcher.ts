import { sql, type Kysely, type Transaction as Trx } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import { feeFor, MAX_AMOUNT, type Cents, toBrlNumber } from '../../domain/money.ts';
import type { AccountRow } from '../../db/repos/accounts.repo.ts';
import type { NewTransaction, TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { PaymentTarget, Settlement } from '../settlement/settlement.service.ts';
import { LIMITED_ORIGINS, limitWindows } from './limits.ts';
import type { PayoutRequest } from './outgoing-payout.ts';

/** A network payout the batcher can take: its counterpart is known and nothing runs after it. */
export type BatchablePayout = PayoutRequest & { counterpart: Counterpart; destination: { kind: 'network'; target: PaymentTarget } };

interface Item {
  req: BatchablePayout;
  resolve: (tx: TransactionRow) => void;
  reject: (error: unknown) => void;
}

const RETRYABLE = new Set(['40P01', '40001']); // deadlock detected, serialization failure

/** The PENDING row of a payout: one shape for the batched and the single-transaction paths. */
export function payoutRow(req: PayoutRequest, account: AccountRow, fee: Cents, counterpart: Counterpart, now: Date): NewTransaction {
  return {
    transaction_id: newUuidV4(),
    account_id: account.id,
    kind: 'WITHDRAW',
    status: 'PENDING',
    origin: req.origin,
    family: req.family,
    external_id: req.externalId,
    original_amount: req.amount,
    fee_amount: fee,
    final_amount: req.amount + fee,
    end_to_end_id: null,
    pix_key: req.pixKey,
    description: req.description,
    error_code: null,
    error_message: null,
    counterpart: JSON.stringify(counterpart),
    metadata: JSON.stringify(req.metadata ?? {}),
    parent_id: null,
    scenario: req.scenario,
    created_at: now,
    processed_at: null,
    updated_at: now,
  };
}

/**
 * Group commit for network payouts. Requests that arrive while the database is busy (or in the
 * same event-loop turn) are admitted together in ONE transaction, so one durable commit and a
 * fixed number of statements serve the whole batch (four, whatever its size):
 *   1. the limit counters, then the accounts, locked in key order (the order every payout and
 *      settlement path locks them in, so batches never deadlock with each other or with them);
 *   2. the PENDING rows, one multi-row insert (the unique (account, externalId) index decides
 *      duplicates, as for a single payout; a duplicate inside one batch waits for the next batch);
 *   3. each item admitted in arrival order against the locked totals and balance, exactly as if
 *      the requests had run one after the other (in memory, under the locks); a refused item's
 *      row is deleted and it gets its own error, the others go on; counters, settlement jobs and
 *      the deletions in one statement;
 *   4. the hold of every admitted payout, one ledger statement (balances and postings).
 * Same checks, same order, same codes as the single-transaction path (`alone`).
 * A deadlock or serialization failure reruns the batch; any other failure runs each item alone
 * through the single-transaction path, so one bad item can never fail the others.
 */
export function createPayoutBatcher(deps: {
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  settlement: Settlement;
  /** The single-transaction path, for a batch that failed as a whole. */
  alone: (req: PayoutRequest) => Promise<TransactionRow>;
  /** Batches in flight at once: 1 on PGlite (one statement at a time), a few on PostgreSQL. */
  inFlight: number;
  maxBatch?: number;
  logger?: Logger;
}) {
  const maxBatch = deps.maxBatch ?? 128;
  const queue: Item[] = [];
  let running = 0;
  let scheduled = false;
  const stats = { batches: 0, items: 0, retries: 0, fallbacks: 0 };

  function submit(req: BatchablePayout): Promise<TransactionRow> {
    return new Promise((resolve, reject) => {
      queue.push({ req, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        // Collect whatever else arrives in this turn of the event loop before taking a batch.
        setImmediate(() => {
          scheduled = false;
          pump();
        });
      }
    });
  }

  function take(): Item[] {
    const batch: Item[] = [];
    const seen = new Set<string>();
    const rest: Item[] = [];
    for (const item of queue) {
      const key = item.req.externalId === null ? undefined : `${item.req.accountId}\u0000${item.req.externalId}`;
      if (batch.length >= maxBatch || (key !== undefined && seen.has(key))) {
        rest.push(item);
        continue;
      }
      if (key !== undefined) seen.add(key);
      batch.push(item);
    }
    queue.length = 0;
    queue.push(...rest);
    return batch;
  }

  function pump() {
    while (running < deps.inFlight && queue.length > 0) {
      const batch = take();
      running += 1;
      stats.batches += 1;
      stats.items += batch.length;
      run(batch).finally(() => {
        running -= 1;
        pump();
      });
    }
  }

  async function run(batch: Item[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const outcomes = await deps.db.transaction().execute((trx) => admit(trx, batch));
        batch.forEach((item, i) => {
          const o = outcomes[i]!;
          if (o instanceof Error) item.reject(o);
          else item.resolve(o);
        });
        return;
      } catch (error) {
        const code = (error as { code?: string })?.code;
        if (code && RETRYABLE.has(code) && attempt < 5) {
          stats.retries += 1;
          continue;
        }
        stats.fallbacks += 1;
        deps.logger?.warn({ err: error, items: batch.length, attempt }, 'payout batch failed; running its payouts one by one');
        // Not the items' fault as far as we know: each runs alone, and answers for itself. Only an
        // item with an externalId: if the failure hid a commit, the unique index stops a second payout.
        await Promise.all(
          batch.map((item) => (item.req.externalId === null ? item.reject(error) : deps.alone(item.req).then(item.resolve, item.reject))),
        );
        return;
      }
    }
  }

  /**
   * The batch's transaction; answers one row or one error per item, in order. Four statements
   * whatever the batch's size (plus one to name the rows a duplicate externalId collides with).
   */
  async function admit(trx: Trx<DB>, batch: Item[]): Promise<Array<TransactionRow | Error>> {
    const out: Array<TransactionRow | Error | undefined> = new Array(batch.length);
    const now = deps.clock.now();
    const windows = limitWindows(now);
    const windowKeys = [windows.day, windows.night].filter((w): w is string => w !== undefined).sort();
    const accountIds = [...new Set(batch.map((i) => i.req.accountId))].sort((a, b) => a - b);

    // 1. The contended rows, counters first, then accounts, each in key order (the order every
    // payout and settlement path takes them in), in ONE statement: the counters' upsert (which
    // creates missing windows and locks them) is an InitPlan of the accounts' filter, so it has
    // run to its end before the first account row is locked. Accounts are locked FOR NO KEY
    // UPDATE, the lock an UPDATE of the balance takes: the foreign keys of rows being inserted
    // (ours and other batches') hold KEY SHARE on the account, which FOR UPDATE would wait on.
    const limited = [...new Set(batch.filter((i) => LIMITED_ORIGINS.has(i.req.origin)).map((i) => i.req.accountId))].sort((a, b) => a - b);
    const totals = new Map<string, number>();
    let lockedAccounts: AccountRow[];
    if (limited.length > 0) {
      const keys = limited.flatMap((a) => windowKeys.map((w) => sql`(${a}::bigint, ${w}::text, 0::bigint)`));
      const locked = await sql<AccountRow & { counters: Array<{ w: string; t: number }> }>`
        WITH counters AS (
          INSERT INTO payout_limit_usage (account_id, window_key, total)
          SELECT k.account_id, k.window_key, k.total FROM (VALUES ${sql.join(keys)}) AS k (account_id, window_key, total)
            JOIN accounts a ON a.id = k.account_id
           ORDER BY k.account_id, k.window_key
          ON CONFLICT (account_id, window_key) DO UPDATE SET total = payout_limit_usage.total
          RETURNING account_id, window_key, total
        )
        SELECT a.*, (SELECT COALESCE(json_agg(json_build_object('w', c.window_key, 't', c.total)), '[]'::json)
                       FROM counters c WHERE c.account_id = a.id) AS counters
          FROM accounts a
         WHERE a.id IN (${sql.join(accountIds)}) AND (SELECT count(*) FROM counters) >= 0
         ORDER BY a.id
           FOR NO KEY UPDATE OF a`.execute(trx);
      lockedAccounts = locked.rows.map(({ counters, ...account }) => {
        const list = typeof counters === 'string' ? (JSON.parse(counters) as typeof counters) : counters;
        for (const c of list) totals.set(`${account.id}|${c.w}`, Number(c.t));
        return account as AccountRow;
      });
    } else {
      lockedAccounts = await trx.selectFrom('accounts').selectAll().where('id', 'in', accountIds).orderBy('id').forNoKeyUpdate().execute();
    }
    const accounts = new Map(lockedAccounts.map((a) => [Number(a.id), a]));

    // The checks that need no running total, in the order the single path makes them.
    const candidates: Array<{ index: number; row: NewTransaction }> = [];
    batch.forEach(({ req }, index) => {
      const account = accounts.get(req.accountId);
      if (!account) return (out[index] = new DomainError('NOT_FOUND', undefined, `Account ${req.accountId} not found`));
      const fee = feeFor(req.amount, { fixed: account.fee_cash_out_fixed as Cents, percentBp: account.fee_cash_out_percent_bp });
      if (req.amount + fee > MAX_AMOUNT) return (out[index] = new DomainError('PIX_INVALID_AMOUNT', undefined, 'The amount plus the fee is above 999,999,999.99'));
      if (LIMITED_ORIGINS.has(req.origin) && req.amount > account.limit_per_transaction) {
        return (out[index] = new DomainError('PIX_TRANSACTION_LIMIT_EXCEEDED', { limit: toBrlNumber(account.limit_per_transaction as Cents) }));
      }
      candidates.push({ index, row: payoutRow(req, account, fee, req.counterpart, now) });
    });
    if (candidates.length === 0) return out as Array<TransactionRow | Error>;

    // 2. The rows (the unique index decides duplicates, as for a single payout), in key order.
    const ordered = [...candidates].sort(
      (a, b) => a.row.account_id - b.row.account_id || String(a.row.external_id).localeCompare(String(b.row.external_id)),
    );
    const inserted = await trx
      .insertInto('transactions')
      .values(ordered.map((r) => r.row))
      .onConflict((oc) => oc.columns(['account_id', 'external_id']).where('external_id', 'is not', null).doNothing())
      .returningAll()
      .execute();
    const byUuid = new Map(inserted.map((r) => [r.transaction_id, r]));
    const duplicates = candidates.filter((c) => !byUuid.has(c.row.transaction_id as string));
    if (duplicates.length > 0) {
      const existing = await trx
        .selectFrom('transactions')
        .select(['account_id', 'external_id', 'transaction_id'])
        .where((e) => e.or(duplicates.map((d) => e.and([e('account_id', '=', d.row.account_id), e('external_id', '=', d.row.external_id!)]))))
        .execute();
      for (const d of duplicates) {
        const found = existing.find((r) => r.account_id === d.row.account_id && r.external_id === d.row.external_id);
        const { req } = batch[d.index]!;
        out[d.index] = new DomainError(req.codes.duplicate, { externalId: req.externalId, existingTransactionId: found?.transaction_id });
      }
    }

    // 3. Each new row, in arrival order, against the locked totals and balance, exactly as if
    // the requests had run one after the other. The network says when it will answer each one.
    const live = new Map([...accounts.values()].map((a) => [a.id, { available: a.available }]));
    const admitted: Array<{ index: number; tx: TransactionRow; job: { runAt: Date; payload: Record<string, unknown> } }> = [];
    const refused: number[] = [];
    const added = new Map<string, { accountId: number; window: string; amount: number; limit: number }>();
    for (const { index, row } of candidates) {
      const tx = byUuid.get(row.transaction_id as string);
      if (!tx) continue;
      const { req } = batch[index]!;
      const account = accounts.get(tx.account_id)!;
      const balance = live.get(tx.account_id)!;
      const amount = tx.original_amount;
      const limited = LIMITED_ORIGINS.has(tx.origin);
      let error: unknown;
      if (limited && (totals.get(`${account.id}|${windows.day}`) ?? 0) + amount > account.limit_daily) {
        error = new DomainError('PIX_DAILY_LIMIT_EXCEEDED', { limit: toBrlNumber(account.limit_daily as Cents) });
      } else if (limited && windows.night && (totals.get(`${account.id}|${windows.night}`) ?? 0) + amount > account.limit_nightly) {
        error = new DomainError('PIX_NIGHT_LIMIT_EXCEEDED', { limit: toBrlNumber(account.limit_nightly as Cents) });
      } else if (balance.available < tx.final_amount) {
        error = new DomainError(req.codes.insufficient);
      }
      let job: { runAt: Date; payload: Record<string, unknown> } | undefined;
      if (!error) {
        try {
          job = await deps.settlement.plan(tx, req.destination.target);
        } catch (planError) {
          error = planError; // the network would not take this one: its own error, the others go on
        }
      }
      if (error || !job) {
        out[index] = error as Error;
        refused.push(tx.id);
        continue;
      }
      balance.available -= tx.final_amount;
      if (limited) {
        for (const [w, limit] of [[windows.day, account.limit_daily], [windows.night, account.limit_nightly]] as const) {
          if (!w) continue;
          const k = `${account.id}|${w}`;
          totals.set(k, (totals.get(k) ?? 0) + amount);
          const a = added.get(k) ?? { accountId: account.id, window: w, amount: 0, limit };
          a.amount += amount;
          added.set(k, a);
        }
      }
      admitted.push({ index, tx, job });
    }

    // One statement: refused rows gone, counters raised (conditionally: under the locks above
    // this cannot fail, and if it ever did nothing of the batch would commit), jobs scheduled.
    const counters = [...added.values()].map((a) => sql`(${a.accountId}::bigint, ${a.window}::text, ${a.amount}::bigint, ${a.limit}::bigint)`);
    const parts = [];
    if (refused.length > 0) parts.push(sql`dropped AS (DELETE FROM transactions WHERE id IN (${sql.join(refused)}))`);
    if (counters.length > 0) {
      parts.push(sql`counted AS (
        UPDATE payout_limit_usage u SET total = u.total + v.amount
          FROM (VALUES ${sql.join(counters)}) AS v (account_id, window_key, amount, lim)
         WHERE u.account_id = v.account_id AND u.window_key = v.window_key AND u.total + v.amount <= v.lim
        RETURNING 1)`);
    }
    if (admitted.length > 0) parts.push(sql`scheduled AS (${deps.settlement.startManyStatement(admitted.map((p) => p.job))})`);
    if (parts.length > 0) {
      const wrote = await sql<{ counted: string | number }>`
        WITH ${sql.join(parts)} SELECT ${counters.length > 0 ? sql`(SELECT count(*) FROM counted)` : sql`0`} AS counted`.execute(trx);
      if (Number(wrote.rows[0]!.counted) !== counters.length) throw new Error('payout batch: limit counters moved under their lock');
    }

    // 4. The money, last: one statement for every admitted payout (the accounts are ours already).
    if (admitted.length > 0) {
      const held = await deps.ledger.hold(
        trx,
        admitted.map((p) => ({ accountId: p.tx.account_id, amount: p.tx.final_amount as Cents, transactionId: p.tx.id, reason: 'hold' })),
        { accountsLockedByCaller: true },
      );
      if (held.some((h) => !h.ok)) throw new Error('payout batch: a hold failed under the account lock');
      for (const p of admitted) out[p.index] = p.tx;
    }
    return out as Array<TransactionRow | Error>;
  }

  return {
    submit,
    /** Batches run, items they carried, batches rerun (deadlock) and run item by item (failure). */
    stats: () => ({ ...stats }),
  };
}

export type PayoutBatcher = ReturnType<typeof createPayoutBatcher>;
