-- Accounts hold the balances; postings are the append-only record of every change to them.
CREATE TABLE accounts (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  document text NOT NULL,
  type text NOT NULL CHECK (type IN ('INDIVIDUAL', 'COMPANY')),
  pix_key text NOT NULL UNIQUE,
  available bigint NOT NULL DEFAULT 0 CHECK (available >= 0),
  blocked bigint NOT NULL DEFAULT 0 CHECK (blocked >= 0),
  limit_per_transaction bigint NOT NULL CHECK (limit_per_transaction >= 0),
  limit_daily bigint NOT NULL CHECK (limit_daily >= 0),
  limit_nightly bigint NOT NULL CHECK (limit_nightly >= 0),
  fee_cash_in_fixed bigint NOT NULL DEFAULT 0 CHECK (fee_cash_in_fixed >= 0),
  fee_cash_in_percent_bp integer NOT NULL DEFAULT 0 CHECK (fee_cash_in_percent_bp BETWEEN 0 AND 10000),
  fee_cash_out_fixed bigint NOT NULL DEFAULT 0 CHECK (fee_cash_out_fixed >= 0),
  fee_cash_out_percent_bp integer NOT NULL DEFAULT 0 CHECK (fee_cash_out_percent_bp BETWEEN 0 AND 10000),
  split_frequency text NOT NULL DEFAULT 'DAILY',
  is_demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX accounts_one_demo ON accounts (is_demo) WHERE is_demo;

-- Every PIX key that belongs to an account of this service (on-us payments resolve through it).
CREATE TABLE account_keys (
  key text PRIMARY KEY,
  key_type text NOT NULL CHECK (key_type IN ('CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP')),
  account_id bigint NOT NULL REFERENCES accounts (id),
  created_at timestamptz NOT NULL
);
CREATE INDEX account_keys_account ON account_keys (account_id);

-- One row per money movement of an account: a charge, a payout, a refund, a deposit.
CREATE TABLE transactions (
  id bigserial PRIMARY KEY,
  transaction_id uuid NOT NULL UNIQUE,
  account_id bigint NOT NULL REFERENCES accounts (id),
  kind text NOT NULL CHECK (kind IN ('PAYMENT', 'WITHDRAW', 'REFUND_IN', 'REFUND_OUT')),
  status text NOT NULL CHECK (status IN ('PENDING', 'CONFIRMED', 'ERROR')),
  -- What created it (cash_in, cob, deposit, cash_out, cash_out_qrcode, dict, refund_in, devolucao, ...).
  origin text NOT NULL,
  -- 'api' notifies in the provider's shapes; 'bacen' (the compatible family) in the version-2 envelope.
  family text NOT NULL DEFAULT 'api' CHECK (family IN ('api', 'bacen')),
  external_id text,
  original_amount bigint NOT NULL CHECK (original_amount > 0),
  fee_amount bigint NOT NULL DEFAULT 0 CHECK (fee_amount >= 0),
  final_amount bigint NOT NULL CHECK (final_amount >= 0),
  -- For a received PIX: the sum of its refunds still pending or done; never above the amount.
  refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= original_amount),
  end_to_end_id text,
  pix_key text,
  description text,
  error_code text,
  error_message text,
  counterpart jsonb,
  metadata jsonb NOT NULL DEFAULT '{}',
  parent_id bigint REFERENCES transactions (id),
  scenario text,
  created_at timestamptz NOT NULL,
  processed_at timestamptz,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX transactions_account_external_id ON transactions (account_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX transactions_account_created ON transactions (account_id, created_at DESC, id DESC);
CREATE INDEX transactions_end_to_end ON transactions (end_to_end_id) WHERE end_to_end_id IS NOT NULL;
CREATE INDEX transactions_parent ON transactions (parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE postings (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  transaction_id bigint REFERENCES transactions (id),
  bucket text NOT NULL CHECK (bucket IN ('available', 'blocked')),
  delta bigint NOT NULL CHECK (delta <> 0),
  reason text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX postings_account ON postings (account_id);
CREATE INDEX postings_transaction ON postings (transaction_id) WHERE transaction_id IS NOT NULL;

-- Client certificates (mTLS identity) and OAuth client credentials of an account.
CREATE TABLE certificates (
  fingerprint text PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  subject text NOT NULL,
  not_before timestamptz NOT NULL,
  not_after timestamptz NOT NULL,
  pem text NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX certificates_account ON certificates (account_id);

CREATE TABLE credentials (
  client_id uuid PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  secret_hash text NOT NULL,
  scopes text NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX credentials_account ON credentials (account_id);

-- Durable jobs: settlements, expiries, split payouts. Done jobs are deleted; failed ones stay.
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  run_at timestamptz NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}',
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 10,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed')),
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX jobs_due ON jobs (run_at, id) WHERE status = 'pending';

-- The outbox: every outgoing event, written in the transaction of the change it reports.
CREATE TABLE events (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL UNIQUE,
  account_id bigint NOT NULL REFERENCES accounts (id),
  type text NOT NULL CHECK (type IN ('cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected')),
  transaction_id bigint REFERENCES transactions (id),
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX events_transaction ON events (transaction_id) WHERE transaction_id IS NOT NULL;
CREATE INDEX events_account ON events (account_id, id);
