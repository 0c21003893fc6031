-- Issue 31 item 3: read-your-writes with a read replica (DATABASE_READ_URL). After a caller's write,
-- its fence holds the primary's WAL position (pg_current_wal_lsn()); that caller's reads go to the
-- primary until the replica has replayed past it (src/db/read-routing.ts). Shared by every instance
-- and process, so a read that lands on another one still sees the write. Unlogged: a fence matters
-- for the few seconds a replica may lag, writes it without WAL, and is not replicated (only the
-- primary reads it). After a crash it is empty: reads then follow the replica's lag bound alone.
CREATE UNLOGGED TABLE IF NOT EXISTS read_fences (
  caller text PRIMARY KEY,
  lsn pg_lsn NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
