-- Issue 29 item 1: the events API (list after a cursor, a resumable live stream). An event's place in
-- that order must never change once a reader could have seen it, yet ids come from a sequence that
-- is drawn before commit: an id drawn earlier may commit later, and a cursor on `id` alone would step
-- over it. So each event records the id of the transaction that wrote it (`xact_id`, filled by the
-- column's default, also for instances older than this code during a rolling upgrade), readers
-- order by (xact_id, id) and only show events whose transaction is older than every transaction
-- still running (`xact_id < pg_snapshot_xmin(pg_current_snapshot())`): nothing can later appear
-- before an event already shown. Events written before this migration have no xact_id and sort
-- first (as 0). SET DEFAULT after ADD COLUMN: a volatile default on ADD COLUMN would rewrite the
-- table; this way existing rows stay as they are.
ALTER TABLE events ADD COLUMN xact_id xid8;
ALTER TABLE events ALTER COLUMN xact_id SET DEFAULT pg_current_xact_id();
-- One account's events in that order: the list, the stream and the cursor lookups read it.
CREATE INDEX events_account_order ON events (account_id, (COALESCE(xact_id, '0'::xid8)), id);
