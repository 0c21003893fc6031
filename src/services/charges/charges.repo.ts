import type { Insertable, Kysely, Selectable, Transaction as Trx } from 'kysely';
import { cents, type Cents } from '../../domain/money.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { ChargesTable, CobStatus } from '../../db/schema/charges.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';

type Db = Kysely<DB> | Trx<DB>;
export type ChargeRow = Selectable<ChargesTable>;

/** SQL of the charges feature: the charge rows, their status moves and the payment of their transaction. */
export const chargesRepo = {
  async insert(db: Db, row: Insertable<ChargesTable>): Promise<ChargeRow> {
    return db.insertInto('charges').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** Inserts unless the account already has a charge with this txid (the unique index decides). */
  async insertUnlessTxidUsed(db: Db, row: Insertable<ChargesTable>): Promise<ChargeRow | undefined> {
    return db
      .insertInto('charges')
      .values(row)
      .onConflict((oc) => oc.columns(['account_id', 'txid']).doNothing())
      .returningAll()
      .executeTakeFirst();
  },

  async byId(db: Db, id: number): Promise<ChargeRow | undefined> {
    return db.selectFrom('charges').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async byTxid(db: Db, accountId: number, txid: string): Promise<ChargeRow | undefined> {
    return db.selectFrom('charges').selectAll().where('account_id', '=', accountId).where('txid', '=', txid).executeTakeFirst();
  },

  async byTransaction(db: Db, transactionId: number): Promise<ChargeRow | undefined> {
    return db.selectFrom('charges').selectAll().where('transaction_id', '=', transactionId).executeTakeFirst();
  },

  async byLocationId(db: Db, locationId: string): Promise<ChargeRow | undefined> {
    return db.selectFrom('charges').selectAll().where('location_id', '=', locationId).executeTakeFirst();
  },

  /** FOR NO KEY UPDATE: it never waits for the foreign-key checks of the split shares naming the charge. */
  async byLocationIdForUpdate(db: Db, locationId: string): Promise<ChargeRow | undefined> {
    return db.selectFrom('charges').selectAll().where('location_id', '=', locationId).forNoKeyUpdate().executeTakeFirst();
  },

  /**
   * Moves an ATIVA charge to another status; answers undefined when it was no longer ATIVA, so a
   * payment, an expiry and a cancellation racing each other change it exactly once.
   */
  async leaveActive(db: Db, id: number, status: Exclude<CobStatus, 'ATIVA'>, at: Date, bumpRevision = false): Promise<ChargeRow | undefined> {
    return db
      .updateTable('charges')
      .set((eb) => ({
        status,
        updated_at: at,
        ...(bumpRevision ? { revisao: eb('revisao', '+', 1) } : {}),
      }))
      .where('id', '=', id)
      .where('status', '=', 'ATIVA')
      .returningAll()
      .executeTakeFirst();
  },

  /** Confirms the charge's PENDING transaction with what the payment brought (amount, fee, payer). */
  async confirmTransaction(
    db: Db,
    id: number,
    paid: { amount: Cents; fee: Cents; endToEndId: string; counterpart: Counterpart; at: Date },
  ): Promise<TransactionRow | undefined> {
    return db
      .updateTable('transactions')
      .set({
        status: 'CONFIRMED',
        original_amount: paid.amount,
        fee_amount: paid.fee,
        final_amount: cents(paid.amount - paid.fee),
        end_to_end_id: paid.endToEndId,
        counterpart: JSON.stringify(paid.counterpart),
        error_code: null,
        error_message: null,
        processed_at: paid.at,
        updated_at: paid.at,
      })
      .where('id', '=', id)
      .where('status', '=', 'PENDING')
      .returningAll()
      .executeTakeFirst();
  },
};
