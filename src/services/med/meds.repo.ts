import { sql, type Insertable, type Kysely, type Selectable, type Transaction as Trx, type Updateable } from 'kysely';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { MedsTable, MedStatus } from '../../db/schema/refunds.ts';

type Db = Kysely<DB> | Trx<DB>;
export type MedRow = Selectable<MedsTable>;

export interface MedFilter {
  status?: MedStatus;
  isReconciled?: boolean;
  startDate?: Date;
  endDate?: Date;
}

/** SQL of MEDs. */
export const medsRepo = {
  async insert(db: Db, row: Insertable<MedsTable>): Promise<MedRow> {
    return db.insertInto('meds').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** One account's MED, locked for the rest of the caller's transaction; a foreign id is undefined. */
  async byIdForUpdate(db: Db, accountId: number, id: number): Promise<MedRow | undefined> {
    return db.selectFrom('meds').selectAll().where('id', '=', id).where('account_id', '=', accountId).forUpdate().executeTakeFirst();
  },

  /** Moves a MED only from the status it was read in (a concurrent move then changes nothing). */
  async update(db: Db, id: number, from: MedStatus, values: Updateable<MedsTable>): Promise<MedRow | undefined> {
    return db.updateTable('meds').set(values).where('id', '=', id).where('status', '=', from).returningAll().executeTakeFirst();
  },

  async page(db: Db, accountId: number, filter: MedFilter, page: number, pageSize: number): Promise<{ rows: MedRow[]; total: number }> {
    let q = db.selectFrom('meds').where('account_id', '=', accountId);
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.isReconciled !== undefined) q = q.where('original_id', filter.isReconciled ? 'is not' : 'is', null);
    if (filter.startDate) q = q.where('created_at', '>=', filter.startDate);
    if (filter.endDate) q = q.where('created_at', '<=', filter.endDate);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
      q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  /** The originals of some MEDs, by transaction id. */
  async originals(db: Db, ids: number[]): Promise<Map<number, TransactionRow>> {
    if (ids.length === 0) return new Map();
    const rows = await db.selectFrom('transactions').selectAll().where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r]));
  },
};
