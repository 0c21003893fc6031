-- Failure limits (decisions 7; src/services/auth/failure-limits.ts). Only failed checks are kept:
-- per key (a client, a certificate, an address, a portal e-mail at an address) the times of its
-- newest failures, oldest first, at most the key's limit of them. That is all an exact sliding window
-- needs: the key is over its limit while `limit` of them lie in the last window, until the oldest of
-- those leaves it (the Retry-After). A right secret writes nothing here; the token, admin and portal
-- look-ups read the row by its key inside the statement they already run.
-- Unlogged, like rate_limit_windows (migration 950): not money; after a crash the counters start
-- again from zero.
CREATE UNLOGGED TABLE auth_failures (
  key text PRIMARY KEY,
  failed_at timestamptz[] NOT NULL,
  -- When the newest failure leaves the window: past it the row says nothing and may be deleted.
  expires_at timestamptz NOT NULL
);
CREATE INDEX auth_failures_expires ON auth_failures (expires_at);

-- The old fixed-window failure buckets (count before check, give back on success) are not read any more.
DELETE FROM rate_limit_windows WHERE bucket LIKE 'auth-fail:%' OR bucket LIKE 'admin-fail:%' OR bucket LIKE 'portal-sign-in:%';

-- record_auth_failure, which records one failed check in auth_failures, is code:
-- src/db/functions/record_auth_failure.sql.
