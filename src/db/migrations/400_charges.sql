-- Charges: a cash-in (public family) or a cob (compatible family). Each has one PAYMENT transaction;
-- this row holds what only a charge has (location, BR Code, expiry, cob fields and status).
CREATE TABLE charges (
  -- The cob's `loc.id`.
  id bigserial PRIMARY KEY,
  transaction_id bigint NOT NULL UNIQUE REFERENCES transactions (id),
  account_id bigint NOT NULL REFERENCES accounts (id),
  kind text NOT NULL CHECK (kind IN ('cash_in', 'cob')),
  -- The client's txid for a cob; for a cash-in the transactionId without hyphens (32 hex).
  txid text NOT NULL,
  -- Opaque random id in the location URL `${PUBLIC_HOST}/qr/v2/{location_id}`.
  location_id text NOT NULL UNIQUE,
  br_code text NOT NULL,
  correlation_id uuid NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  receiver_key text NOT NULL,
  expiration_seconds integer NOT NULL CHECK (expiration_seconds > 0),
  expires_at timestamptz NOT NULL,
  modalidade_alteracao smallint NOT NULL DEFAULT 0 CHECK (modalidade_alteracao IN (0, 1)),
  devedor jsonb,
  solicitacao_pagador text,
  info_adicionais jsonb,
  additional_info jsonb,
  splits jsonb NOT NULL DEFAULT '[]',
  status text NOT NULL DEFAULT 'ATIVA'
    CHECK (status IN ('ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP')),
  revisao integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- A txid names one charge per account (the central bank: unique per receiver).
CREATE UNIQUE INDEX charges_account_txid ON charges (account_id, txid);

-- One payout per split recipient of a paid charge; `payout_transaction_id` is set once it is made.
CREATE TABLE charge_split_payouts (
  id bigserial PRIMARY KEY,
  charge_id bigint NOT NULL REFERENCES charges (id),
  position integer NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 0),
  payout_transaction_id bigint REFERENCES transactions (id),
  created_at timestamptz NOT NULL,
  UNIQUE (charge_id, position)
);
