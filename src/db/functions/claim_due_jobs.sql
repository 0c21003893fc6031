-- claim_due_jobs: the scheduler's claim (src/jobs/job-leases.ts), in ONE statement that commits a
-- lease on the due jobs of the given kinds: those due on the service clock (p_now) and those due on
-- their test clock's frozen time (migration 1500), at most p_limit of each, oldest first.
-- Why a function: the queue is the table that changes fastest and its statistics are always stale
-- (autovacuum analyses it a minute late at best; the embedded database never does), so the planner
-- sized it at a few rows and read it through a bitmap scan of every due entry, dead ones included,
-- then sorted: 1,817 entries and 319 heap pages to claim 50 jobs (bench:work, auto_explain). A bitmap
-- scan never marks an entry dead, so the next claim walked them all again. The ordered scan of
-- jobs_due stops at p_limit live jobs and marks the dead entries it passes, so later claims skip them.
-- The test clocks' jobs are taken clock by clock (each clock's oldest first: the times of two clocks
-- do not compare), in the order of jobs_clock_due, the small index that holds only them. Ordered by
-- due time across clocks, with sorting off, the planner walked the whole of jobs_due instead, every
-- service job included, to find none: 3,242 buffers per claim with 13,000 jobs pending (bench:work,
-- 64 accounts, auto_explain), so the claim slowed as the queue grew and the queue grew.
CREATE OR REPLACE FUNCTION claim_due_jobs(p_now timestamptz, p_kinds text[], p_limit int, p_lease_seconds int, p_token uuid)
RETURNS TABLE (id bigint, kind text, payload jsonb, attempts int, max_attempts int, clock_id uuid, clock_time timestamptz)
LANGUAGE sql VOLATILE
SET enable_bitmapscan = off
SET enable_seqscan = off
SET enable_sort = off
AS $$
  WITH on_service AS (
     SELECT j.id FROM jobs j
      WHERE j.status = 'pending' AND j.run_at <= p_now AND j.clock_id IS NULL AND (j.lease_until IS NULL OR j.lease_until < now())
        AND j.kind = ANY (p_kinds)
      ORDER BY j.run_at, j.id
      LIMIT p_limit
      FOR UPDATE SKIP LOCKED),
   on_clocks AS (
     SELECT j.id FROM jobs j JOIN test_clocks c ON c.id = j.clock_id
      WHERE j.status = 'pending' AND j.clock_id IS NOT NULL AND j.run_at <= c.frozen_time AND (j.lease_until IS NULL OR j.lease_until < now())
        AND j.kind = ANY (p_kinds)
      ORDER BY j.clock_id, j.run_at, j.id
      LIMIT p_limit
      FOR UPDATE OF j SKIP LOCKED)
  UPDATE jobs SET lease_until = now() + make_interval(secs => p_lease_seconds), lease_token = p_token, updated_at = p_now
   WHERE jobs.id IN (SELECT o.id FROM on_service o UNION ALL SELECT k.id FROM on_clocks k)
  RETURNING jobs.id, jobs.kind, jobs.payload, jobs.attempts, jobs.max_attempts, jobs.clock_id,
            (SELECT c.frozen_time FROM test_clocks c WHERE c.id = jobs.clock_id)
$$;
