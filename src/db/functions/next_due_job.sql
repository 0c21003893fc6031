-- next_due_job: when the earliest job that is not leased falls due on the service clock (the
-- scheduler sleeps until then, src/jobs/job-leases.ts). A test clock's jobs fall due only when it is
-- advanced, never here. A function for the reason claim_due_jobs.sql gives: with the queue's stale
-- statistics the planner read every due entry of jobs_due, dead ones included (6,764 entries and
-- 1,138 heap pages for 192 live jobs after 10 s of cash-outs on the embedded database), where the
-- ordered scan stops at the first live job and marks the dead entries it passes.
CREATE OR REPLACE FUNCTION next_due_job()
RETURNS timestamptz
LANGUAGE sql STABLE
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $$
  SELECT j.run_at FROM jobs j
   WHERE j.status = 'pending' AND j.clock_id IS NULL AND (j.lease_until IS NULL OR j.lease_until < now())
   ORDER BY j.run_at, j.id
   LIMIT 1
$$;
