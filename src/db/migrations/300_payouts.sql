-- Payouts: the simulated key directory, per-window limit counters, and generic idempotency keys.

-- Keys registered through POST /sandbox/dict/keys: the simulated network's directory entries.
CREATE TABLE sandbox_dict_keys (
  key text PRIMARY KEY,
  key_type text NOT NULL CHECK (key_type IN ('CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP')),
  name text NOT NULL,
  document text NOT NULL,
  ispb text NOT NULL,
  branch text,
  account text,
  created_at timestamptz NOT NULL
);

-- Cash-out totals per account and limit window ('day:YYYY-MM-DD', 'night:YYYY-MM-DD', São Paulo
-- dates), kept in the statement that admits a payout so daily and night limits are exact under
-- concurrency without summing the transactions table. A rejected payout gives its amount back.
CREATE TABLE payout_limit_usage (
  account_id bigint NOT NULL REFERENCES accounts (id),
  window_key text NOT NULL,
  total bigint NOT NULL CHECK (total >= 0),
  PRIMARY KEY (account_id, window_key)
);

-- One idempotency mechanism for every route that takes a key: the first answer is stored with
-- the hash of the body it answered; status_code NULL means the first request is still in flight.
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  account_id bigint NOT NULL REFERENCES accounts (id),
  key text NOT NULL,
  body_hash text NOT NULL,
  status_code integer,
  response jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (scope, account_id, key)
);

-- Listing filters of GET /api/transactions that narrow by kind or status inside one account.
CREATE INDEX transactions_account_kind_created ON transactions (account_id, kind, created_at DESC, id DESC);
CREATE INDEX transactions_account_status_created ON transactions (account_id, status, created_at DESC, id DESC);
