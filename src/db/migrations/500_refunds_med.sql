-- One row per refund of a received PIX, by either family (refund-in, devolucao) or by an approved MED.
-- The money lives on the refund's transaction row (kind REFUND_IN); this row adds what the
-- central bank's Devolucao needs: the client's id (unique per original), the rtrId and the nature.
CREATE TABLE refunds (
  id bigserial PRIMARY KEY,
  transaction_id bigint NOT NULL UNIQUE REFERENCES transactions (id),
  original_id bigint NOT NULL REFERENCES transactions (id),
  account_id bigint NOT NULL REFERENCES accounts (id),
  -- The devolucao `id` (public family: the externalId, or a generated one).
  refund_id text NOT NULL,
  rtr_id text NOT NULL,
  natureza text NOT NULL CHECK (natureza IN ('ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE')),
  description text,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX refunds_original_refund_id ON refunds (original_id, refund_id);

-- MEDs (Special Refund Mechanism) opened by other banks against a PIX the account received.
CREATE TABLE meds (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  end_to_end_id text NOT NULL,
  -- The local transaction the end-to-end id matched (reconciled), if any.
  original_id bigint REFERENCES transactions (id),
  status text NOT NULL CHECK (status IN ('OPEN', 'RECEIVED', 'CANCELLED', 'ANALYZED')),
  reason text NOT NULL CHECK (reason IN ('REFUND_REQUEST', 'REFUND_CANCELLATION')),
  cause text,
  description text,
  analysis_result text CHECK (analysis_result IN ('APPROVED', 'REJECTED')),
  analysis_details text,
  requesting_bank_ispb text NOT NULL,
  requesting_bank_name text NOT NULL,
  disputed_amount bigint NOT NULL CHECK (disputed_amount > 0),
  -- The precautionary block still held for this MED (0 once released or refunded).
  blocked_amount bigint NOT NULL DEFAULT 0 CHECK (blocked_amount >= 0),
  refund_transaction_id bigint REFERENCES transactions (id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX meds_account_created ON meds (account_id, created_at DESC, id DESC);

-- Fixed-window request counters shared by every instance (MED list, webhook resend, ...).
CREATE TABLE rate_limit_windows (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
