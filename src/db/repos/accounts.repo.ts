import { prepared } from '../prepared.ts';
import { sql, type Insertable, type Kysely, type Selectable, type Transaction as Trx, type Updateable } from 'kysely';
import type { AccountsTable, DB } from '../schema.ts';

type Db = Kysely<DB> | Trx<DB>;
export type AccountRow = Selectable<AccountsTable>;

export const accountsRepo = {
  async insert(db: Db, row: Insertable<AccountsTable>): Promise<AccountRow> {
    return db.insertInto('accounts').values(row).returningAll().executeTakeFirstOrThrow();
  },
  async byId(db: Db, id: number): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** Locks the account row: limits that sum over a window stay exact under concurrency. */
  async byIdForUpdate(db: Db, id: number): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
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
  async addKey(db: Db, accountId: number, key: string, keyType: 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP', at: Date) {
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
