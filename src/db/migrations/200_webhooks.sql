-- Webhook delivery (issue 4): registrations, signing secrets, one delivery row per (event, URL),
-- and an attempt log. (The resend rate limit uses the shared rate_limit_windows.)

-- The exact JSON text `emit` was given: jsonb reorders keys, and receivers get the text as written.
ALTER TABLE events ADD COLUMN body text;

-- One signing secret per account (`whsec_` + base64), created on first need.
CREATE TABLE webhook_secrets (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  secret text NOT NULL,
  created_at timestamptz NOT NULL
);

-- A URL registered for one event type. Deleted rows are kept (deliveries reference them) but hidden.
CREATE TABLE webhooks (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  event_type text NOT NULL CHECK (event_type IN ('cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected')),
  url text NOT NULL,
  -- [{key, value}] in the order given.
  headers jsonb NOT NULL DEFAULT '[]',
  version integer NOT NULL DEFAULT 1,
  is_active boolean NOT NULL DEFAULT true,
  disabled_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
-- One row per (account, event, URL): re-registering updates it.
CREATE UNIQUE INDEX webhooks_account_event_url ON webhooks (account_id, event_type, url) WHERE deleted_at IS NULL;
CREATE INDEX webhooks_fan_out ON webhooks (account_id, event_type) WHERE is_active AND deleted_at IS NULL;

-- One delivery per (event, registration). `next_attempt_at` is both the retry time and the lease:
-- a claim moves it past the lease end, so a relay that dies leaves the row due again later.
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  event_id bigint NOT NULL REFERENCES events (id),
  webhook_id bigint NOT NULL REFERENCES webhooks (id),
  account_id bigint NOT NULL REFERENCES accounts (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
  -- Attempts whose result was written.
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  claim_token uuid,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

-- Every attempt: relay deliveries (delivery_id set) and resends (delivery_id null).
CREATE TABLE webhook_logs (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  event_id bigint REFERENCES events (id),
  delivery_id bigint REFERENCES webhook_deliveries (id),
  webhook_id bigint REFERENCES webhooks (id),
  kind text NOT NULL CHECK (kind IN ('delivery', 'resend')),
  attempt integer,
  url text NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  response_excerpt text,
  error text,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_logs_delivery ON webhook_logs (delivery_id) WHERE delivery_id IS NOT NULL;
CREATE INDEX webhook_logs_account ON webhook_logs (account_id, id);
