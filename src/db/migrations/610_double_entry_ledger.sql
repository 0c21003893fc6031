-- Double-entry ledger (issue 11). The chart of accounts: every customer account has two ledger
-- accounts (its `available` and `blocked` buckets, balances kept on the accounts row); the system
-- accounts below are the other side of every movement. A system account has no balance row: every
-- payment of the service touches one, so a row would serialise them all; its balance is the sum
-- of its postings (see the ledger check).
CREATE TABLE ledger_accounts (
  code text PRIMARY KEY,
  description text NOT NULL
);
INSERT INTO ledger_accounts (code, description) VALUES
  ('network:sandbox', 'Settlement clearing with the sandbox simulator (payments out and in over the network)'),
  ('network:unconfigured', 'Settlement clearing of production without a provider (never moves)'),
  ('onus_clearing', 'On-us payments between two accounts of this service (nets to zero)'),
  ('fee_revenue', 'Fees charged on cash-in and cash-out'),
  ('med_clearing', 'Refunds returned through MED (Special Refund Mechanism)'),
  ('world', 'The outside world: sandbox deposits'),
  ('suspense', 'Unexplained differences, including single-entry postings written before this migration');

-- A posting moves either a customer bucket (account_id + bucket) or a system account (ledger_account).
ALTER TABLE postings ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE postings ALTER COLUMN bucket DROP NOT NULL;
ALTER TABLE postings ADD COLUMN ledger_account text REFERENCES ledger_accounts (code);
ALTER TABLE postings ADD CONSTRAINT postings_one_side CHECK (
  (account_id IS NOT NULL AND bucket IS NOT NULL AND ledger_account IS NULL)
  OR (account_id IS NULL AND bucket IS NULL AND ledger_account IS NOT NULL));
-- The postings of one movement (journal entry) share a journal id and sum to zero.
ALTER TABLE postings ADD COLUMN journal_id uuid;

-- Postings written before this migration: one journal per (transaction, reason, instant), and
-- whatever does not balance (credits, settlements) balanced against suspense.
UPDATE postings p SET journal_id = g.journal_id
  FROM (SELECT transaction_id, reason, created_at, gen_random_uuid() AS journal_id
          FROM postings GROUP BY transaction_id, reason, created_at) g
 WHERE p.transaction_id IS NOT DISTINCT FROM g.transaction_id AND p.reason = g.reason AND p.created_at = g.created_at;
INSERT INTO postings (account_id, bucket, ledger_account, transaction_id, delta, reason, created_at, journal_id)
SELECT NULL, NULL, 'suspense', min(transaction_id), -sum(delta), 'opening_balance', min(created_at), journal_id
  FROM postings GROUP BY journal_id HAVING sum(delta) <> 0;
ALTER TABLE postings ALTER COLUMN journal_id SET NOT NULL;
-- No index on journal_id or ledger_account: only the ledger check reads by them, and it scans
-- everything anyway; every payment writes postings, so each index would cost the hot path.
