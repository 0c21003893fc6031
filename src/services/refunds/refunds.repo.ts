import { sql, type Insertable, type Kysely, type Selectable, type Transaction as Trx } from 'kysely';
import type { TransactionStatus } from '../../domain/closed-lists.ts';
import type { Cents } from '../../domain/money.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { RefundsTable } from '../../db/schema/refunds.ts';

type Db = Kysely<DB> | Trx<DB>;
export type RefundRow = Selectable<RefundsTable>;

/**
 * THE refundable reservation (its one home; the schema's CHECK refunded_amount <= original_amount is
 * its guard, test/db/single-home-rules.test.ts): `amount` more of the original's amount is reserved in
 * ONE conditional statement, so two concurrent refunds can never together pass the original amount.
 * `status`: only while the original has it (a payout returned by its bank: CONFIRMED). Answers the
 * updated original, or undefined when the amount does not fit (or the status differs).
 */
export function reserveRefundable(db: Db, originalId: number, amount: Cents, options: { status?: TransactionStatus; at?: Date } = {}): Promise<TransactionRow | undefined> {
  let update = db
    .updateTable('transactions')
    .set({ refunded_amount: sql`refunded_amount + ${amount}`, ...(options.at ? { updated_at: options.at } : {}) })
    .where('id', '=', originalId)
    .where(sql<boolean>`refunded_amount + ${amount} <= original_amount`);
  if (options.status) update = update.where('status', '=', options.status);
  return update.returningAll().executeTakeFirst();
}

/** SQL of refunds: the reservation on the original, the refund rows, and lookups by devolucao id. */
export const refundsRepo = {
  /**
   * Reserves `amount` of the original's refundable amount in ONE conditional statement, so two
   * concurrent refunds can never together pass the original amount. Answers the new refunded total,
   * or undefined when the amount does not fit.
   */
  async reserve(db: Db, originalId: number, amount: Cents): Promise<Cents | undefined> {
    return (await reserveRefundable(db, originalId, amount))?.refunded_amount;
  },

  /** Gives a reservation back (the refund ended in ERROR). */
  async giveBack(db: Db, originalId: number, amount: Cents): Promise<TransactionRow> {
    return db
      .updateTable('transactions')
      .set({ refunded_amount: sql`refunded_amount - ${amount}` })
      .where('id', '=', originalId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Inserts unless the original already has a refund with this id; undefined when it has. */
  async insertUnlessIdUsed(db: Db, row: Insertable<RefundsTable>): Promise<RefundRow | undefined> {
    return db
      .insertInto('refunds')
      .values(row)
      .onConflict((oc) => oc.columns(['original_id', 'refund_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
  },

  /** Every refund of one original with its transaction, oldest first (a paid cob's `devolucoes`). */
  async ofOriginal(db: Db, originalId: number): Promise<Array<{ refund: RefundRow; tx: TransactionRow }>> {
    const refunds = await db.selectFrom('refunds').selectAll().where('original_id', '=', originalId).orderBy('id').execute();
    if (refunds.length === 0) return [];
    const txs = await db.selectFrom('transactions').selectAll().where('id', 'in', refunds.map((r) => r.transaction_id)).execute();
    const byId = new Map(txs.map((tx) => [tx.id, tx]));
    return refunds.map((refund) => ({ refund, tx: byId.get(refund.transaction_id)! }));
  },

  async byTransactionId(db: Db, transactionId: number): Promise<RefundRow | undefined> {
    return db.selectFrom('refunds').selectAll().where('transaction_id', '=', transactionId).executeTakeFirst();
  },

  async byRefundId(db: Db, originalId: number, refundId: string): Promise<RefundRow | undefined> {
    return db
      .selectFrom('refunds')
      .selectAll()
      .where('original_id', '=', originalId)
      .where('refund_id', '=', refundId)
      .executeTakeFirst();
  },

  /** The account's received PIX with this end-to-end id (the original of a devolucao or a MED). */
  async receivedByEndToEndId(db: Db, accountId: number, endToEndId: string): Promise<TransactionRow | undefined> {
    return db
      .selectFrom('transactions')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('end_to_end_id', '=', endToEndId)
      .where('kind', '=', 'PAYMENT')
      .orderBy('id')
      .executeTakeFirst();
  },
};
