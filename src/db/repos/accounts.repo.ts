import { prepared } from '../prepared.ts';
import { fn } from '../function-sources.ts';
import { sql, type Insertable, type Kysely, type Selectable, type Transaction as Trx, type Updateable } from 'kysely';
import { cents, type Cents } from '../../domain/money.ts';
import type { AccountsTable, DB } from '../schema.ts';
import type { DictKeyType } from '../../domain/closed-lists.ts';

type Db = Kysely<DB> | Trx<DB>;
export type AccountRow = Selectable<AccountsTable>;

/** Which of an account's fee settings a movement pays: a PIX credited to it, or its own payout. */
export type FeeSchedule = 'cash_in' | 'cash_out';

/** An account as read for one movement: the fee of `amount` under one of its schedules, by pix_fee. */
export interface AccountWithFee {
  account: AccountRow;
  amount: Cents;
  fee: Cents;
}

export const accountsRepo = {
  async insert(db: Db, row: Insertable<AccountsTable>): Promise<AccountRow> {
    return db.insertInto('accounts').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async byId(db: Db, id: number): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /**
   * The account with the fee its `schedule` charges on `amount`, computed in the same read by
   * pix_fee (src/db/functions/pix_fee.sql: the one fee function of every origin).
   */
  async withFee(db: Db, id: number, schedule: FeeSchedule, amount: Cents): Promise<AccountWithFee | undefined> {
    const fixed = schedule === 'cash_in' ? 'fee_cash_in_fixed' : 'fee_cash_out_fixed';
    const percent = schedule === 'cash_in' ? 'fee_cash_in_percent_bp' : 'fee_cash_out_percent_bp';
    const row = await db
      .selectFrom('accounts')
      .selectAll()
      .select(sql<number>`${fn('pix_fee')}(${amount}::bigint, ${sql.ref(fixed)}, ${sql.ref(percent)})`.as('fee_of_amount'))
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const { fee_of_amount: fee, ...account } = row;
    return { account, amount, fee: cents(fee) };
  },
  /**
   * Locks the account row for the rest of the caller's transaction (one account: for several, in id
   * order, `lockInOrder`). FOR NO KEY UPDATE, the lock a balance UPDATE takes, never FOR UPDATE: FOR
   * UPDATE also waits for the FOR KEY SHARE locks that foreign-key checks take on the account
   * whenever any transaction inserts a row naming it (a transaction, a posting, an event), which
   * sit outside the lock order; and every later balance update of the account queues behind the
   * waiting FOR UPDATE, so those implicit locks closed cycles (src/db/README.md, "Lock order").
   */
  async byIdForUpdate(db: Db, id: number): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
  },
  /**
   * Locks several accounts' rows in id order (the one lock order of every money path: limit
   * counters first, then accounts by ascending id), the lock a balance UPDATE takes.
   */
  async lockInOrder(db: Db, ids: number[]): Promise<void> {
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    if (sorted.length === 0) return;
    await sql`${prepared('lock_accounts_in_order')}SELECT id FROM accounts WHERE id = ANY (${sorted}::bigint[]) ORDER BY id FOR NO KEY UPDATE`.execute(db);
  },
  async demo(db: Db): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('is_demo', '=', true).executeTakeFirst();
  },
  async update(db: Db, id: number, values: Updateable<AccountsTable>): Promise<AccountRow | undefined> {
    return db.updateTable('accounts').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  },
  async addKey(db: Db, accountId: number, key: string, keyType: DictKeyType, at: Date) {
    await db.insertInto('account_keys').values({ key, key_type: keyType, account_id: accountId, created_at: at }).execute();
  },
  /** The account a PIX key (in its DICT form) belongs to, if it is one of ours: on-us payments. */
  async byKey(db: Db, key: string): Promise<{ accountId: number; keyType: string } | undefined> {
    const row = await db.selectFrom('account_keys').select(['account_id', 'key_type']).where('key', '=', key).executeTakeFirst();
    return row ? { accountId: row.account_id, keyType: row.key_type } : undefined;
  },
  /** `byKey` for many keys in one query: the owner of each key that is ours. */
  async byKeys(db: Db, keys: string[]): Promise<Map<string, { accountId: number; keyType: string }>> {
    if (keys.length === 0) return new Map();
    const rows = await sql<{ key: string; account_id: number; key_type: string }>`
      ${prepared('account_keys_by_key')}SELECT key, account_id, key_type FROM account_keys WHERE key = ANY (${keys}::text[])`.execute(db);
    return new Map(rows.rows.map((r) => [r.key, { accountId: Number(r.account_id), keyType: r.key_type }]));
  },
  async keysOf(db: Db, accountId: number): Promise<Array<{ key: string; keyType: string }>> {
    const rows = await db.selectFrom('account_keys').select(['key', 'key_type']).where('account_id', '=', accountId).orderBy('created_at').execute();
    return rows.map((r) => ({ key: r.key, keyType: r.key_type }));
  },
};
