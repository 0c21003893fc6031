-- The provider adapter (issue 13): production moves money through one account at an upstream PIX
-- provider (a pooled account). Its settlement clearing account, the adapter's own books, and the
-- suspense items of money that reached the pooled account naming no charge of ours.
INSERT INTO ledger_accounts (code, description) VALUES
  ('network:provider', 'Settlement clearing with the upstream PIX provider (the pooled account)')
ON CONFLICT (code) DO NOTHING;

-- Every notice the provider sent us, by its Standard Webhooks id: a notice received again changes
-- nothing. `claimed_until` keeps two deliveries of one notice from being handled at once;
-- `handled_at` is set once its effects are written.
CREATE TABLE provider_notices (
  webhook_id text PRIMARY KEY,
  event text NOT NULL,
  received_at timestamptz NOT NULL,
  claimed_until timestamptz,
  handled_at timestamptz,
  -- What the notice did (or why it changed nothing), for operators.
  outcome text
);
CREATE INDEX provider_notices_received ON provider_notices (received_at DESC);

-- The charges registered at the provider, until a notice or the charge check finds them paid or ended.
CREATE TABLE provider_charges (
  reference text PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  registered_at timestamptz NOT NULL,
  finished_at timestamptz
);

-- Small named facts operators see in GET /admin/network/status (webhook registration, last reconciliation).
CREATE TABLE provider_state (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The daily statement check: our clearing account against the provider's GET /api/balance.
CREATE TABLE provider_statement_checks (
  id bigserial PRIMARY KEY,
  checked_at timestamptz NOT NULL,
  -- The pooled account's gross balance at the provider; null when the provider could not be asked.
  provider_balance bigint,
  -- What our books say the pooled account holds.
  our_balance bigint NOT NULL,
  difference bigint,
  -- Payments still waiting for an outcome then (a difference may be money in flight).
  payouts_awaiting integer NOT NULL,
  error text
);

-- Money that reached the pooled account naming no charge of ours (or a charge that could no longer
-- take it): held in the `suspense` ledger account until an operator assigns it to an account.
CREATE TABLE suspense_items (
  id bigserial PRIMARY KEY,
  end_to_end_id text NOT NULL UNIQUE,
  amount bigint NOT NULL CHECK (amount > 0),
  payer jsonb NOT NULL,
  reason text NOT NULL,
  -- The charge the payment named, when it named one we could not credit.
  charge_reference text,
  network text NOT NULL REFERENCES ledger_accounts (code),
  provider_transaction_id text,
  received_at timestamptz NOT NULL,
  assigned_account_id bigint REFERENCES accounts (id),
  assigned_transaction_id bigint REFERENCES transactions (id),
  assigned_at timestamptz
);
CREATE INDEX suspense_items_open ON suspense_items (received_at) WHERE assigned_at IS NULL;

-- A MED the network reported, by the network's own id of it: a notice repeated opens nothing more.
ALTER TABLE meds ADD COLUMN network_reference text;
CREATE UNIQUE INDEX meds_network_reference ON meds (network_reference) WHERE network_reference IS NOT NULL;
