import { sql, type Transaction as Trx } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import { cents, feeFor, MAX_AMOUNT, type Cents, toBrlNumber } from '../../domain/money.ts';
import { accountsRepo, type AccountRow } from '../../db/repos/accounts.repo.ts';
import type { NewTransaction, TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { Settlement } from '../settlement/settlement.service.ts';
import { LIMITED_ORIGINS, limitWindows } from './limits.ts';
import type { PayoutRequest } from './outgoing-payout.ts';

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
    final_amount: cents(req.amount + fee),
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
 * THE admission of payouts: the only implementation of the fee, limit, balance and duplicate rules.
 * A group-commit batch runs it over many requests; a single payout (on-us, with an `onCreated`, a
 * failed batch's items) is a batch of one. Steps, in one transaction:
 *   1. the limit counters, then the accounts, locked in key order (the order every payout and
 *      settlement path locks them in, so batches never deadlock with each other or with them);
 *   2. the PENDING rows, one multi-row insert (the unique (account, externalId) index decides
 *      duplicates; a duplicate inside one batch waits for the next batch);
 *   3. each item admitted in arrival order against the locked totals and balance, exactly as if
 *      the requests had run one after the other (in memory, under the locks); a refused item's
 *      row is deleted and it gets its own error, the others go on; counters, settlement jobs and
 *      the deletions in one statement (no network call: the submit step hands payments over later);
 *   4. the hold of every admitted payout, one ledger statement (balances and postings);
 *   5. on-us items settle both sides; each item's `onCreated` runs.
 */
export function createPayoutAdmission(deps: {
  clock: Clock;
  ledger: Ledger;
  settlement: Pick<Settlement, 'submitJob' | 'startManyStatement'>;
  /** Settles an admitted, held on-us payout at once (both sides) in the caller's transaction. */
  settleOnUs: (trx: Trx<DB>, payer: AccountRow, tx: TransactionRow, req: PayoutRequest) => Promise<TransactionRow>;
}) {
  /**
   * The batch's transaction; answers one row or one error per item, in order. Four statements
   * whatever the batch's size (plus one to name the rows a duplicate externalId collides with, and
   * the on-us settlement of on-us items, which always come as a batch of one).
   */
  async function admit(trx: Trx<DB>, requests: PayoutRequest[]): Promise<Array<TransactionRow | Error>> {
    const batch = requests.map((req) => ({ req }));
    const out: Array<TransactionRow | Error | undefined> = new Array(batch.length);
    const now = deps.clock.now();
    const windows = limitWindows(now);
    const windowKeys = [windows.day, windows.night].filter((w): w is string => w !== undefined).sort();
    // An on-us payout moves two balances: the receiver is locked with the payers, all in id order,
    // so A->B and B->A never deadlock.
    const receivers = batch.flatMap((i) => (i.req.destination.kind === 'on_us_key' ? [i.req.destination.receiverAccountId] : []));
    const accountIds = [...new Set([...batch.map((i) => i.req.accountId), ...receivers])].sort((a, b) => a - b);

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
    for (const [index, { req }] of batch.entries()) {
      const account = accounts.get(req.accountId);
      if (!account) {
        out[index] = new DomainError('NOT_FOUND', undefined, `Account ${req.accountId} not found`);
        continue;
      }
      const fee = feeFor(req.amount, { fixed: account.fee_cash_out_fixed, percentBp: account.fee_cash_out_percent_bp });
      if (req.amount + fee > MAX_AMOUNT) {
        out[index] = new DomainError('PIX_INVALID_AMOUNT', undefined, 'The amount plus the fee is above 999,999,999.99');
        continue;
      }
      if (LIMITED_ORIGINS.has(req.origin) && req.amount > account.limit_per_transaction) {
        out[index] = new DomainError('PIX_TRANSACTION_LIMIT_EXCEEDED', { limit: toBrlNumber(account.limit_per_transaction) });
        continue;
      }
      // An on-us payout names its receiver once the receiving account is known.
      let counterpart: Counterpart;
      if (typeof req.counterpart === 'function') {
        const dest = req.destination;
        const receiver = dest.kind === 'on_us_key' ? await accountsRepo.byId(trx, dest.receiverAccountId) : undefined;
        if (!receiver) {
          out[index] = new DomainError('PIX_INVALID_PIX_KEY');
          continue;
        }
        counterpart = req.counterpart(receiver);
      } else counterpart = req.counterpart;
      candidates.push({ index, row: payoutRow(req, account, fee, counterpart, now) });
    }
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
    // the requests had run one after the other.
    const live = new Map([...accounts.values()].map((a) => [a.id, { available: a.available as number }]));
    const admitted: Array<{ index: number; tx: TransactionRow; job: { runAt: Date; payload: Record<string, unknown> } | undefined }> = [];
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
        error = new DomainError('PIX_DAILY_LIMIT_EXCEEDED', { limit: toBrlNumber(account.limit_daily) });
      } else if (limited && windows.night && (totals.get(`${account.id}|${windows.night}`) ?? 0) + amount > account.limit_nightly) {
        error = new DomainError('PIX_NIGHT_LIMIT_EXCEEDED', { limit: toBrlNumber(account.limit_nightly) });
      } else if (balance.available < tx.final_amount) {
        error = new DomainError(req.codes.insufficient);
      }
      if (error) {
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
      // The network hears of it from the submit step, after this transaction commits.
      admitted.push({ index, tx, job: req.destination.kind === 'network' ? deps.settlement.submitJob(tx, req.destination.target) : undefined });
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
    const jobs = admitted.flatMap((p) => (p.job ? [p.job] : []));
    if (jobs.length > 0) parts.push(sql`scheduled AS (${deps.settlement.startManyStatement(jobs)})`);
    if (parts.length > 0) {
      const wrote = await sql<{ counted: string | number }>`
        WITH ${sql.join(parts)} SELECT ${counters.length > 0 ? sql`(SELECT count(*) FROM counted)` : sql`0`} AS counted`.execute(trx);
      if (Number(wrote.rows[0]!.counted) !== counters.length) throw new Error('payout batch: limit counters moved under their lock');
    }

    // 4. The money, last: one statement for every admitted payout (the accounts are ours already).
    if (admitted.length > 0) {
      const held = await deps.ledger.hold(
        trx,
        admitted.map((p) => ({ accountId: p.tx.account_id, amount: p.tx.final_amount, transactionId: p.tx.id, reason: 'hold' })),
        { accountsLockedByCaller: true },
      );
      if (held.some((h) => !h.ok)) throw new Error('payout batch: a hold failed under the account lock');
      // 5. On-us payouts settle both sides now; then whatever the request runs last (e.g. storing
      // its idempotent answer). A refusal here throws: the transaction (a batch of one) rolls back.
      for (const p of admitted) {
        const { req } = batch[p.index]!;
        const result = req.destination.kind === 'network' ? p.tx : await deps.settleOnUs(trx, accounts.get(p.tx.account_id)!, p.tx, req);
        await req.onCreated?.(trx, result);
        out[p.index] = result;
      }
    }
    return out as Array<TransactionRow | Error>;
  }

  return admit;
}

export type PayoutAdmission = ReturnType<typeof createPayoutAdmission>;
