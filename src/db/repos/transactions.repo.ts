import { sql, type Insertable, type Kysely, type Selectable, type Transaction as Trx } from 'kysely';
import type { DB, TransactionsTable } from '../schema.ts';
import type { FinalTransactionStatus } from '../../domain/closed-lists.ts';
import { prepared } from '../prepared.ts';

type Db = Kysely<DB> | Trx<DB>;
export type TransactionRow = Selectable<TransactionsTable>;
export type NewTransaction = Insertable<TransactionsTable>;

/** A transactions row as a server-side function answers it (`to_jsonb(row)`): the same row, dates revived. */
export function transactionFromJson(json: Record<string, unknown>): TransactionRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    ...(json as unknown as TransactionRow),
    created_at: date(json.created_at)!,
    updated_at: date(json.updated_at)!,
    processed_at: date(json.processed_at),
  };
}

/** SQL for the transactions table, shared by every feature that records a money movement. */
export const transactionsRepo = {
  async insert(db: Db, row: NewTransaction): Promise<TransactionRow> {
    return db.insertInto('transactions').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /**
   * Inserts unless the account already used the externalId; answers the row and whether it is new.
   * The unique index decides, so two concurrent requests can never both create one.
   */
  async insertUnlessExternalIdUsed(db: Db, row: NewTransaction): Promise<{ created: boolean; row: TransactionRow }> {
    const inserted = await db
      .insertInto('transactions')
      .values(row)
      .onConflict((oc) => oc.columns(['account_id', 'external_id']).where('external_id', 'is not', null).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { created: true, row: inserted };
    const existing = await transactionsRepo.byExternalId(db, row.account_id, row.external_id!);
    if (!existing) throw new Error(`transaction with externalId ${row.external_id} neither inserted nor found`);
    return { created: false, row: existing };
  },

  /** The account's transaction with this externalId, if it used it. */
  async byExternalId(db: Db, accountId: number, externalId: string): Promise<TransactionRow | undefined> {
    return db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('external_id', '=', externalId).executeTakeFirst();
  },

  async byId(db: Db, id: number): Promise<TransactionRow | undefined> {
    return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /**
   * Locks the row for the rest of the caller's transaction: FOR NO KEY UPDATE, which never waits for
   * the foreign-key checks of rows naming it (a refund's, a child transaction's); see accounts.repo.
   */
  async byIdForUpdate(db: Db, id: number): Promise<TransactionRow | undefined> {
    return db.selectFrom('transactions').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
  },

  /** Locks many rows, in id order (two batches never deadlock on each other). */
  async byIdsForUpdate(db: Db, ids: number[]): Promise<TransactionRow[]> {
    if (ids.length === 0) return [];
    return db.selectFrom('transactions').selectAll().where('id', 'in', ids).orderBy('id').forNoKeyUpdate().execute();
  },

  /**
   * `finishPending` for many rows in one statement; answers the rows it moved (those still
   * PENDING), in the order asked.
   */
  async finishManyPending(
    db: Db,
    at: Date,
    outcomes: Array<{
      id: number;
      status: FinalTransactionStatus;
      endToEndId: string | null;
      errorCode: string | null;
      errorMessage: string | null;
      /** Who received it, as the network reports it: its name and bank fill or correct ours; our document, when we have one, stays. */
      payee?: { name: string | null; document: string | null; bank: { ispb: string | null; name: string | null; code: string | null } } | null;
    }>,
  ): Promise<TransactionRow[]> {
    if (outcomes.length === 0) return [];
    const reported = (p: NonNullable<(typeof outcomes)[number]['payee']>) => ({
      name: p.name,
      document: p.document,
      bank: { bankISPB: p.bank.ispb, bankName: p.bank.name, bankCode: p.bank.code },
    });
    // One fixed-shape statement whatever the batch's size (the outcomes travel as one JSON array).
    // The ids again as an array: the rows are found by their primary key. With only the join to the
    // outcomes, the planner, misled by the always-stale count of PENDING rows (a payout settles within
    // a second of being counted), read every PENDING entry of transactions_account_status_created
    // instead (2,013 rows for 40 at 64 accounts: bench:work with auto_explain), a cost that grew with
    // the backlog of unsettled payouts (test/db/pending-set-plans.test.ts).
    const result = await sql<TransactionRow>`
      ${prepared('finish_pending_transactions_payee')}UPDATE transactions t
         SET status = v.status, processed_at = ${at}, updated_at = ${at},
             end_to_end_id = v.e2e, error_code = v.code, error_message = v.message,
             counterpart = CASE WHEN v.payee IS NULL THEN t.counterpart ELSE jsonb_build_object(
               'name', COALESCE(v.payee->>'name', t.counterpart->>'name'),
               'document', COALESCE(t.counterpart->>'document', v.payee->>'document'),
               'bank', COALESCE(t.counterpart->'bank', '{"bankISPB":null,"bankName":null,"bankCode":null,"accountBranch":null,"accountNumber":null}'::jsonb)
                       || jsonb_strip_nulls(v.payee->'bank')) END
        FROM jsonb_to_recordset(${JSON.stringify(outcomes.map((o) => ({ id: o.id, status: o.status, e2e: o.endToEndId, code: o.errorCode, message: o.errorMessage, payee: o.payee ? reported(o.payee) : null })))}::jsonb)
          AS v (id bigint, status text, e2e text, code text, message text, payee jsonb)
       WHERE t.id = ANY (${outcomes.map((o) => o.id)}::bigint[]) AND t.id = v.id AND t.status = 'PENDING'
      RETURNING t.*`.execute(db);
    const byId = new Map(result.rows.map((r) => [Number(r.id), r]));
    return outcomes.map((o) => byId.get(o.id)).filter((r): r is TransactionRow => r !== undefined);
  },

  /**
   * One account's transaction by any public identifier: the numeric id, the transactionId (UUID),
   * the externalId, or the end-to-end id. A foreign or unknown identifier answers undefined.
   */
  async findForAccount(
    db: Db,
    accountId: number,
    identifier: string,
    accept: { externalId?: boolean; endToEndId?: boolean } = {},
  ): Promise<TransactionRow | undefined> {
    const base = () => db.selectFrom('transactions').selectAll().where('account_id', '=', accountId);
    if (/^\d{1,15}$/.test(identifier)) {
      const row = await base().where('id', '=', Number(identifier)).executeTakeFirst();
      if (row) return row;
    }
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(identifier)) {
      const row = await base().where('transaction_id', '=', identifier.toLowerCase()).executeTakeFirst();
      if (row) return row;
    }
    if (accept.endToEndId && /^[ED][A-Za-z0-9]{31}$/.test(identifier)) {
      const row = await base().where('end_to_end_id', '=', identifier).orderBy('id').executeTakeFirst();
      if (row) return row;
    }
    if (accept.externalId) {
      return base().where('external_id', '=', identifier).executeTakeFirst();
    }
    return undefined;
  },

  /**
   * Moves a PENDING transaction to its outcome; answers the updated row, or undefined when it was
   * no longer PENDING (a duplicate settlement then changes nothing).
   */
  async finishPending(
    db: Db,
    id: number,
    outcome: {
      status: FinalTransactionStatus;
      at: Date;
      endToEndId?: string | null;
      errorCode?: string | null;
      errorMessage?: string | null;
    },
  ): Promise<TransactionRow | undefined> {
    return db
      .updateTable('transactions')
      .set({
        status: outcome.status,
        processed_at: outcome.at,
        updated_at: outcome.at,
        ...(outcome.endToEndId !== undefined ? { end_to_end_id: outcome.endToEndId } : {}),
        error_code: outcome.errorCode ?? null,
        error_message: outcome.errorMessage ?? null,
      })
      .where('id', '=', id)
      .where('status', '=', 'PENDING')
      .returningAll()
      .executeTakeFirst();
  },
};
