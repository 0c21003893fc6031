import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { fn } from '../../src/db/function-sources.ts';
import { migratedSnapshot } from '../pglite-snapshot.ts';

/**
 * The scheduler's claim (claim_due_jobs.sql) must not walk the queue's dead rows again on every
 * pass. With the queue's statistics stale (always, between analyses) the planner read the claim's
 * statement through a bitmap scan, which never marks a dead entry: every claim walked every finished
 * job again. The function keeps the ordered scan, which marks what it passes. Measured on a queue
 * left with 8,000 finished jobs and no vacuum: heap pages the claim touches, pass after pass.
 */
const opened: Database[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
});

/** The claim's statement as it was sent before the function (src/jobs/job-leases.ts before issue 28, session 3). */
const claimAsAStatement = (db: Kysely<any>) =>
  sql`WITH on_service AS (
        SELECT id FROM jobs
         WHERE status = 'pending' AND run_at <= now() AND clock_id IS NULL AND (lease_until IS NULL OR lease_until < now())
           AND kind = ANY (${['payment.submit']}::text[])
         ORDER BY run_at, id LIMIT ${50} FOR UPDATE SKIP LOCKED)
      UPDATE jobs SET lease_until = now() + make_interval(secs => 15), lease_token = gen_random_uuid()
       WHERE id IN (SELECT id FROM on_service) RETURNING id`.execute(db);

const claimAsTheFunction = (db: Kysely<any>) =>
  sql`SELECT * FROM ${fn('claim_due_jobs')}(now(), ARRAY['payment.submit'], 50, 15, gen_random_uuid())`.execute(db);

/** Heap pages of `jobs` each of three claims in a row touches, on a queue 20 bursts of 400 finished jobs left behind. */
async function pagesPerClaim(claim: (db: Kysely<any>) => Promise<unknown>): Promise<number[]> {
  const database = await openDatabase({ dataDir: 'memory://', loadDataDir: await migratedSnapshot(), vacuum: false });
  opened.push(database);
  for (let burst = 0; burst < 20; burst++) {
    await sql`INSERT INTO jobs (kind, run_at, payload, status, attempts, max_attempts, created_at, updated_at)
              SELECT 'payment.submit', now() - interval '1 minute', '{}', 'pending', 0, 10, now(), now() FROM generate_series(1, 400)`.execute(database.db);
    await sql`DELETE FROM jobs`.execute(database.db);
  }
  const pages = async () =>
    Number((await sql<{ n: string }>`SELECT pg_stat_get_xact_blocks_fetched('jobs'::regclass) AS n`.execute(database.db)).rows[0]!.n);
  const touched: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    const before = await pages();
    await claim(database.db);
    touched.push((await pages()) - before);
  }
  return touched;
}

describe('the job claim on a queue full of finished jobs', () => {
  it('walks the dead rows once, then claims without them; the statement it replaced walked them on every pass', async () => {
    const [first = 0, ...later] = await pagesPerClaim(claimAsTheFunction);
    const asAStatement = await pagesPerClaim(claimAsAStatement);
    expect(first).toBeGreaterThan(100);
    for (const pages of later) expect(pages).toBeLessThan(first / 10);
    // The control: with the same statistics, the old statement's plan touched as much every time.
    for (const pages of asAStatement) expect(pages).toBeGreaterThan(100);
  });
});

/** Heap pages of `jobs` a claim touches with `pending` service-clock jobs all due later, and none on a test clock. */
async function pagesWithALongPendingQueue(pending: number): Promise<{ pages: number; claimed: number }> {
  const database = await openDatabase({ dataDir: 'memory://', loadDataDir: await migratedSnapshot(), vacuum: false });
  opened.push(database);
  await sql`INSERT INTO jobs (kind, run_at, payload, status, attempts, max_attempts, created_at, updated_at)
            SELECT 'payment.submit', now() + interval '1 hour', '{}', 'pending', 0, 10, now(), now() FROM generate_series(1, ${pending}::int)`.execute(database.db);
  await sql`ANALYZE jobs`.execute(database.db);
  const pages = async () => Number((await sql<{ n: string }>`SELECT pg_stat_get_xact_blocks_fetched('jobs'::regclass) AS n`.execute(database.db)).rows[0]!.n);
  const before = await pages();
  const claimed = (await claimAsTheFunction(database.db)).rows.length;
  return { pages: (await pages()) - before, claimed };
}

describe('the job claim with many jobs pending on the service clock', () => {
  it("looks for test clocks' jobs in their own index, not through every service job (the claim does not slow as the queue grows)", async () => {
    const small = await pagesWithALongPendingQueue(10);
    const large = await pagesWithALongPendingQueue(6_000);
    expect(small.claimed).toBe(0);
    expect(large.claimed).toBe(0);
    // Walking jobs_due for the clocks' branch fetched every pending job's page (about 6,000 / 60 per page).
    expect(large.pages).toBeLessThan(10);
    expect(large.pages).toBeLessThanOrEqual(small.pages + 2);
  });
});
