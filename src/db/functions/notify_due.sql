-- notify_due: wake-ups instead of an idle polling storm (issue 12, item 5), the trigger of migration
-- 680. A statement that inserts jobs or webhook deliveries notifies, at commit, the channel
-- `<name>@<schema>` with the earliest due time among its rows (epoch milliseconds). Instances LISTEN on it (a dedicated connection on PostgreSQL,
-- PGlite's own listener in process) and poll only slowly as a safety net. The trigger runs inside the
-- inserting transaction: no extra round trip, and nothing is announced that did not commit.
CREATE OR REPLACE FUNCTION notify_due() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  due_at timestamptz;
BEGIN
  IF TG_TABLE_NAME = 'jobs' THEN
    SELECT min(run_at) INTO due_at FROM added;
  ELSE
    SELECT min(next_attempt_at) INTO due_at FROM added;
  END IF;
  IF due_at IS NOT NULL THEN
    PERFORM pg_notify(TG_ARGV[0] || '@' || current_schema(), (floor(extract(epoch FROM due_at) * 1000))::bigint::text);
  END IF;
  RETURN NULL;
END
$$;
