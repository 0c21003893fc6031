-- Issue 29 item 3: per-account test clocks (sandbox). A clock stands still at `frozen_time` until it
-- is advanced; the accounts on it (at most one clock per account: the primary key) see that time in
-- every time rule (src/services/test-clocks/README.md). Deleting a clock puts its accounts back on the
-- service clock (the cascade) and its jobs back under the service clock (SET NULL).
CREATE TABLE test_clocks (
  id uuid PRIMARY KEY,
  name text,
  frozen_time timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'advancing')),
  -- While advancing: until when the advancing process holds it (the database's real time, renewed
  -- at each step); a clock left advancing by a process that stopped may be advanced again after it.
  advance_lease_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE test_clock_accounts (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  clock_id uuid NOT NULL REFERENCES test_clocks (id) ON DELETE CASCADE
);
CREATE INDEX test_clock_accounts_clock ON test_clock_accounts (clock_id);

-- A job scheduled for an account on a clock falls due on that clock's time, not the service's.
ALTER TABLE jobs ADD COLUMN clock_id uuid REFERENCES test_clocks (id) ON DELETE SET NULL;
CREATE INDEX jobs_clock_due ON jobs (clock_id, run_at, id) WHERE status = 'pending' AND clock_id IS NOT NULL;
