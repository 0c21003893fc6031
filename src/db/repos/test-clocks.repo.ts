import { sql, type Insertable, type Kysely, type Selectable, type Transaction as Trx } from 'kysely';
import type { DB, TestClocksTable } from '../schema.ts';
import { prepared } from '../prepared.ts';

type Db = Kysely<DB> | Trx<DB>;
export type TestClockRow = Selectable<TestClocksTable>;
export interface TestClockWithAccounts extends TestClockRow {
  accountIds: number[];
}

/** SQL of the per-account test clocks (migration 1500). */
export const testClocksRepo = {
  /** Every account on a clock, with its clock's id and time (the in-memory membership's one read). */
  async members(db: Db): Promise<Array<{ accountId: number; clockId: string; time: Date }>> {
    const { rows } = await sql<{ account_id: number | string; id: string; frozen_time: Date | string }>`${prepared('test_clock_members')}SELECT a.account_id, c.id, c.frozen_time
        FROM test_clock_accounts a JOIN test_clocks c ON c.id = a.clock_id`.execute(db);
    return rows.map((r) => ({ accountId: Number(r.account_id), clockId: r.id, time: new Date(r.frozen_time) }));
  },

  /** Which of these accounts exist, and the clock each is on already. */
  async accountsOf(db: Db, accountIds: number[]): Promise<Array<{ id: number; clock_id: string | null }>> {
    if (accountIds.length === 0) return [];
    return db
      .selectFrom('accounts as a')
      .leftJoin('test_clock_accounts as t', 't.account_id', 'a.id')
      .select(['a.id', 't.clock_id'])
      .where('a.id', 'in', accountIds)
      .execute();
  },

  async insert(db: Db, clock: Insertable<TestClocksTable> & { id: string }, accountIds: number[]): Promise<void> {
    await db.insertInto('test_clocks').values(clock).execute();
    await db
      .insertInto('test_clock_accounts')
      .values(accountIds.map((account_id) => ({ account_id, clock_id: clock.id })))
      .execute();
  },

  async byId(db: Db, id: string): Promise<TestClockWithAccounts | undefined> {
    const clock = await db.selectFrom('test_clocks').selectAll().where('id', '=', id).executeTakeFirst();
    if (!clock) return undefined;
    const accounts = await db.selectFrom('test_clock_accounts').select('account_id').where('clock_id', '=', id).orderBy('account_id').execute();
    return { ...clock, accountIds: accounts.map((a) => Number(a.account_id)) };
  },

  /** A page of clocks, newest first; with `accountId`, only the clock that account is on. */
  async page(db: Db, filter: { accountId?: number }, asked: { page: number; pageSize: number }): Promise<{ rows: TestClockWithAccounts[]; total: number }> {
    let query = db.selectFrom('test_clocks as c');
    if (filter.accountId !== undefined) {
      const accountId = filter.accountId;
      query = query.where((eb) => eb.exists(eb.selectFrom('test_clock_accounts as t').select('t.account_id').whereRef('t.clock_id', '=', 'c.id').where('t.account_id', '=', accountId)));
    }
    const counted = await query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirst();
    const clocks = await query
      .selectAll('c')
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id')
      .limit(asked.pageSize)
      .offset((asked.page - 1) * asked.pageSize)
      .execute();
    const ids = clocks.map((c) => c.id);
    const members = ids.length === 0 ? [] : await db.selectFrom('test_clock_accounts').select(['clock_id', 'account_id']).where('clock_id', 'in', ids).orderBy('account_id').execute();
    const rows = clocks.map((c) => ({ ...c, accountIds: members.filter((m) => m.clock_id === c.id).map((m) => Number(m.account_id)) }));
    return { rows, total: Number(counted?.total ?? 0) };
  },

  /**
   * ready -> advancing, under a lease of `leaseSeconds` on the database's real time: answers the
   * clock, or undefined when another advance holds it (a lapsed lease, left by a process that
   * stopped, is taken over).
   */
  async startAdvance(db: Db, id: string, now: Date, leaseSeconds: number): Promise<TestClockRow | undefined> {
    const { rows } = await sql<TestClockRow>`UPDATE test_clocks
         SET status = 'advancing', advance_lease_until = clock_timestamp() + make_interval(secs => ${leaseSeconds}), updated_at = ${now}
       WHERE id = ${id}::uuid AND (status = 'ready' OR advance_lease_until IS NULL OR advance_lease_until < clock_timestamp())
       RETURNING *`.execute(db);
    return rows[0] ? { ...rows[0], frozen_time: new Date(rows[0].frozen_time) } : undefined;
  },

  /** Moves the clock's time forward (never back) and renews the advance's lease. */
  async setTime(db: Db, id: string, time: Date, now: Date, leaseSeconds: number): Promise<void> {
    await sql`UPDATE test_clocks SET frozen_time = GREATEST(frozen_time, ${time}::timestamptz), updated_at = ${now},
                advance_lease_until = clock_timestamp() + make_interval(secs => ${leaseSeconds})
               WHERE id = ${id}::uuid`.execute(db);
  },

  async finishAdvance(db: Db, id: string, now: Date): Promise<void> {
    await db.updateTable('test_clocks').set({ status: 'ready', advance_lease_until: null, updated_at: now }).where('id', '=', id).execute();
  },

  async remove(db: Db, id: string): Promise<boolean> {
    const result = await db.deleteFrom('test_clocks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /**
   * The earliest due time after `after` and not after `until` of the clock's work: its jobs and the
   * webhook deliveries of its accounts.
   */
  async nextDue(db: Db, id: string, after: Date, until: Date): Promise<Date | undefined> {
    const { rows } = await sql<{ next: Date | string | null }>`
      SELECT LEAST(
        (SELECT min(run_at) FROM jobs WHERE clock_id = ${id}::uuid AND status = 'pending' AND run_at > ${after}::timestamptz AND run_at <= ${until}::timestamptz),
        (SELECT min(d.next_attempt_at) FROM webhook_deliveries d JOIN test_clock_accounts t ON t.account_id = d.account_id
          WHERE t.clock_id = ${id}::uuid AND d.status = 'pending' AND d.next_attempt_at > ${after}::timestamptz AND d.next_attempt_at <= ${until}::timestamptz)
      ) AS next`.execute(db);
    const next = rows[0]?.next;
    return next === null || next === undefined ? undefined : new Date(next);
  },
};
