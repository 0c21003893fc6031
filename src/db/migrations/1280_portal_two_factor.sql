-- Issue 30 item 2: TOTP two-factor sign-in to the portal (RFC 6238). New tables only: a build from
-- before this one never reads them, and its sessions and sign-ins keep working.
--
-- One TOTP secret per person, sealed (AES-256-GCM under a key derived from the client-secret hash
-- key), never shown after enrolment. `enabled_at` is null while the person is enrolling (the secret
-- was shown, no code proved it yet). `last_step` is the last accepted 30-second step: a code works once.
CREATE TABLE portal_two_factor (
  user_id bigint PRIMARY KEY REFERENCES portal_users (id),
  secret_sealed text NOT NULL,
  enabled_at timestamptz,
  last_step bigint,
  created_at timestamptz NOT NULL
);

-- Recovery codes, shown once at enrolment, kept as SHA-256 (each is 50 random bits: a fast hash
-- is enough, as for session ids); each works once.
CREATE TABLE portal_recovery_codes (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES portal_users (id),
  code_hash text NOT NULL,
  used_at timestamptz
);
CREATE INDEX portal_recovery_codes_user ON portal_recovery_codes (user_id);

-- A password that proved right, waiting for the second step: the browser holds a random id, the
-- table its SHA-256; it lasts 5 minutes and is used once.
CREATE TABLE portal_sign_in_challenges (
  id_hash text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES portal_users (id),
  next text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  address text
);
CREATE INDEX portal_sign_in_challenges_expiry ON portal_sign_in_challenges (expires_at);
