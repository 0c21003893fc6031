-- Payment workflows as durable steps (issue 11). A job that talks to the outside (submit a payment
-- to the network, ask it for a status) is claimed under a lease that commits at once, runs with no
-- transaction open, then records its answer and removes itself in one short transaction. The lease
-- is on the database server's real clock (liveness), never on the adjustable service clock.
ALTER TABLE jobs ADD COLUMN lease_until timestamptz;
ALTER TABLE jobs ADD COLUMN lease_token uuid;

-- The sandbox simulator's own books: what the simulated network was asked to pay, once per
-- reference (our transaction id, its idempotency key), and the charges registered with it.
CREATE TABLE sandbox_network_payments (
  reference text PRIMARY KEY,
  kind text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  payee jsonb NOT NULL,
  scenario text,
  ordered_at timestamptz NOT NULL,
  expires_at timestamptz,
  submitted_at timestamptz NOT NULL,
  -- The end-to-end id the payment settles with: one id however often its status is asked.
  end_to_end_id text NOT NULL
);

CREATE TABLE sandbox_network_charges (
  reference text PRIMARY KEY,
  amount bigint NOT NULL CHECK (amount > 0),
  scenario text,
  registered_at timestamptz NOT NULL
);
