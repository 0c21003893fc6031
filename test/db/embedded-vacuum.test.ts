import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migratedSnapshot } from '../pglite-snapshot.ts';

/**
 * PGlite has no autovacuum (single-user mode) and never flushes its activity counters, so without
 * the service's own vacuum the job queue keeps every deleted row: the scheduler's claim and its
 * "next due" read walk all of them on every pass, and the planner keeps sizing the queue as empty.
 */
const opened: Database[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
});

async function open(vacuum: { queueEveryMs: number; allEveryMs: number; analyzeEveryMs: number } | false): Promise<Database> {
  const database = await openDatabase({ dataDir: 'memory://', loadDataDir: await migratedSnapshot(), vacuum });
  opened.push(database);
  return database;
}

/** One burst of jobs written and finished, as a burst of cash-outs leaves the queue. */
async function churn(database: Database, rows: number): Promise<void> {
  await sql`INSERT INTO jobs (kind, run_at, payload, status, attempts, max_attempts, created_at, updated_at)
            SELECT 'payment.submit', now(), jsonb_build_object('id', g, 'order', repeat('x', 300)), 'pending', 0, 10, now(), now()
              FROM generate_series(1, ${rows}) g`.execute(database.db);
  await sql`DELETE FROM jobs`.execute(database.db);
}

/** Buffers the scheduler's "next due" read touches on an empty queue (EXPLAIN ANALYZE, BUFFERS). */
async function nextDueBuffers(database: Database): Promise<number> {
  const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, BUFFERS, COSTS false)
    SELECT min(run_at) FROM jobs WHERE status = 'pending' AND clock_id IS NULL AND (lease_until IS NULL OR lease_until < now())`.execute(database.db);
  const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  return Math.max(0, ...[...text.matchAll(/shared hit=(\d+)/g)].map((m) => Number(m[1])));
}

/** How many times each table was analysed (pg_stat_user_tables.analyze_count). */
const analysed = async (database: Database): Promise<Record<string, number>> =>
  Object.fromEntries(
    (await sql<{ relname: string; n: string }>`SELECT relname, analyze_count AS n FROM pg_stat_user_tables WHERE relname IN ('jobs', 'webhook_deliveries', 'transactions')`.execute(database.db)).rows.map(
      (r) => [r.relname, Number(r.n)],
    ),
  );

/** How many times each table was vacuumed (pg_stat_user_tables.vacuum_count). */
const vacuumed = async (database: Database): Promise<Record<string, number>> =>
  Object.fromEntries(
    (await sql<{ relname: string; n: string }>`SELECT relname, vacuum_count AS n FROM pg_stat_user_tables WHERE relname IN ('jobs', 'webhook_deliveries', 'transactions')`.execute(database.db)).rows.map(
      (r) => [r.relname, Number(r.n)],
    ),
  );

const relationSize = async (database: Database, name: string) =>
  Number((await sql<{ size: string }>`SELECT pg_relation_size(${name}::regclass) AS size`.execute(database.db)).rows[0]!.size);

describe('the embedded database vacuums itself', () => {
  it('keeps the job queue small under churn, where without it every finished job stays behind', async () => {
    const withVacuum = await open({ queueEveryMs: 60_000, allEveryMs: 600_000, analyzeEveryMs: 600_000 });
    const without = await open(false);
    for (let round = 0; round < 20; round++) {
      await churn(withVacuum, 400);
      await withVacuum.vacuum!.pass(false);
      await churn(without, 400);
    }
    const kept = { heap: await relationSize(withVacuum, 'jobs'), due: await relationSize(withVacuum, 'jobs_due'), read: await nextDueBuffers(withVacuum) };
    const left = { heap: await relationSize(without, 'jobs'), due: await relationSize(without, 'jobs_due'), read: await nextDueBuffers(without) };
    // 20 bursts of 400: without a vacuum the queue keeps all 8,000 dead rows; with it, one burst's worth.
    expect(left.heap).toBeGreaterThan(5 * kept.heap);
    expect(left.read).toBeGreaterThan(10 * Math.max(1, kept.read));
    expect(kept.due).toBeLessThan(left.due);
  });

  it('runs on its own timer: the queues often, every table less often', async () => {
    const database = await open({ queueEveryMs: 50, allEveryMs: 150, analyzeEveryMs: 300 });
    await churn(database, 50);
    await expect.poll(async () => (await vacuumed(database)).transactions ?? 0, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
    expect((await vacuumed(database)).jobs).toBeGreaterThan((await vacuumed(database)).transactions!);
    expect((await vacuumed(database)).webhook_deliveries).toBeGreaterThan(0);

  });

  it('skips a pass when nothing was written since the last one', async () => {
    const database = await open({ queueEveryMs: 60_000, allEveryMs: 600_000, analyzeEveryMs: 600_000 });
    await churn(database, 10);
    await database.vacuum!.pass(false);
    const before = await vacuumed(database);
    expect(before.jobs).toBeGreaterThan(0);
    await database.vacuum!.pass(false);
    expect(await vacuumed(database)).toEqual(before);
    await churn(database, 10);
    await database.vacuum!.pass(false);
    expect((await vacuumed(database)).jobs).toBe(before.jobs! + 1);
    expect((await vacuumed(database)).transactions).toBe(before.transactions);
  });

  it('a pass over every table analyses the big tables only when asked (their ANALYZE holds the one connection longest)', async () => {
    const database = await open({ queueEveryMs: 60_000, allEveryMs: 600_000, analyzeEveryMs: 600_000 });
    await churn(database, 10);
    const before = { vacuumed: await vacuumed(database), analysed: await analysed(database) };
    await database.vacuum!.pass(true, false);
    expect((await vacuumed(database)).transactions).toBe(before.vacuumed.transactions! + 1);
    expect((await analysed(database)).transactions).toBe(before.analysed.transactions);
    expect((await analysed(database)).jobs).toBe(before.analysed.jobs! + 1);
    await churn(database, 10);
    await database.vacuum!.pass(true, true);
    expect((await analysed(database)).transactions).toBe(before.analysed.transactions! + 1);
  });
});

describe('the embedded vacuum and the requests on the one connection', () => {
  it('never lands inside a transaction: one held open across several passes commits as if alone', async () => {
    const database = await open({ queueEveryMs: 20, allEveryMs: 40, analyzeEveryMs: 80 });
    const before = await vacuumed(database);
    await database.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO jobs (kind, run_at, payload, status, attempts, max_attempts, created_at, updated_at)
                VALUES ('payment.submit', now(), '{}', 'pending', 0, 10, now(), now())`.execute(trx);
      // Several ticks fall due while this transaction holds the connection.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sql`DELETE FROM jobs`.execute(trx);
    });
    // The passes ran after it (they waited for the connection), not inside it.
    await expect.poll(async () => (await vacuumed(database)).jobs ?? 0, { timeout: 10_000, interval: 20 }).toBeGreaterThan(before.jobs ?? 0);
  });
});
