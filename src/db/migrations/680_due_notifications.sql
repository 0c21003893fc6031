-- Wake-ups instead of an idle polling storm (issue 12, item 5). A statement that inserts jobs or
-- webhook deliveries notifies, at commit, the channel `<name>@<schema>` with the earliest due time
-- among its rows (epoch milliseconds). Instances LISTEN on it (a dedicated connection on PostgreSQL,
-- PGlite's own listener in process) and poll only slowly as a safety net. The trigger runs inside the
-- inserting transaction: no extra round trip, and nothing is announced that did not commit.
-- The trigger function notify_due is code: src/db/functions/notify_due.sql (migrate applies trigger
-- functions before the migrations that create their triggers).

CREATE TRIGGER jobs_notify_due AFTER INSERT ON jobs
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION notify_due('jobs_due');

CREATE TRIGGER webhook_deliveries_notify_due AFTER INSERT ON webhook_deliveries
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION notify_due('deliveries_due');
