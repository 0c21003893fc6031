-- Issue 23 item 3: can the settlement UPDATE of a payout be HOT? Only if it changes no indexed
-- column, and it changes `status`, which is the key of transactions_account_status_created and the
-- predicate of transactions_pending_payouts. This script shows what those two indexes answer, on a
-- scratch copy of the transactions table and its indexes (64 accounts x 3,000 rows over 90 days,
-- 0.3% payouts PENDING), with and without them. Run: psql "$TEST_DATABASE_URL" -f bench/work/status-indexes.sql
-- (it creates and drops the schema status_indexes; nothing else is touched).
DROP SCHEMA IF EXISTS status_indexes CASCADE;
CREATE SCHEMA status_indexes; SET search_path = status_indexes;
CREATE TABLE transactions (
  id bigserial PRIMARY KEY, transaction_id uuid NOT NULL UNIQUE, account_id bigint NOT NULL,
  kind text NOT NULL, status text NOT NULL, origin text NOT NULL, external_id text,
  original_amount bigint NOT NULL, final_amount bigint NOT NULL, end_to_end_id text, description text,
  metadata jsonb NOT NULL DEFAULT '{}', created_at timestamptz NOT NULL, processed_at timestamptz, updated_at timestamptz NOT NULL);
CREATE UNIQUE INDEX transactions_account_external_id ON transactions (account_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX transactions_account_created ON transactions (account_id, created_at DESC, id DESC);
CREATE INDEX transactions_end_to_end ON transactions (end_to_end_id) WHERE end_to_end_id IS NOT NULL;
CREATE INDEX transactions_account_kind_created ON transactions (account_id, kind, created_at DESC, id DESC);
CREATE INDEX transactions_account_status_created ON transactions (account_id, status, created_at DESC, id DESC);
CREATE INDEX transactions_pending_payouts ON transactions (created_at) WHERE status = 'PENDING' AND kind IN ('WITHDRAW', 'REFUND_IN');
-- 64 accounts x 3,000 rows over 90 days; a few payouts PENDING (the ones in flight), some ERROR.
INSERT INTO transactions (transaction_id, account_id, kind, status, origin, external_id, original_amount, final_amount, end_to_end_id, created_at, updated_at)
SELECT gen_random_uuid(), 1 + g % 64, CASE WHEN g % 3 = 0 THEN 'PAYMENT' ELSE 'WITHDRAW' END,
       CASE WHEN g % 200 = 1 THEN 'PENDING' WHEN g % 50 = 4 THEN 'ERROR' ELSE 'CONFIRMED' END, 'cash_out', 'ext-' || g, 100, 100,
       CASE WHEN g % 200 = 1 THEN NULL ELSE 'E' || g END, now() - (g % 129600) * interval '1 minute', now()
  FROM generate_series(1, 192000) g;
UPDATE transactions SET status = 'CONFIRMED' WHERE status = 'PENDING' AND kind = 'PAYMENT';
ANALYZE transactions;
\echo == backlog (metrics scrape): pending payouts, with the partial index
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT count(*), min(created_at) FROM transactions WHERE status = 'PENDING' AND kind IN ('WITHDRAW', 'REFUND_IN');
\echo == API list count, status filter, 31-day window, with the status index
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT count(*) FROM transactions WHERE account_id = 5 AND created_at >= now() - interval '31 days' AND created_at < now() AND status = 'ERROR';
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT * FROM transactions WHERE account_id = 5 AND created_at >= now() - interval '31 days' AND created_at < now() AND status = 'ERROR' ORDER BY created_at DESC, id DESC LIMIT 20;
DROP INDEX transactions_pending_payouts; DROP INDEX transactions_account_status_created;
\echo == the same without the two indexes whose key or predicate holds status
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT count(*), min(created_at) FROM transactions WHERE status = 'PENDING' AND kind IN ('WITHDRAW', 'REFUND_IN');
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT count(*) FROM transactions WHERE account_id = 5 AND created_at >= now() - interval '31 days' AND created_at < now() AND status = 'ERROR';
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT * FROM transactions WHERE account_id = 5 AND created_at >= now() - interval '31 days' AND created_at < now() AND status = 'ERROR' ORDER BY created_at DESC, id DESC LIMIT 20;
RESET search_path; DROP SCHEMA status_indexes CASCADE;
