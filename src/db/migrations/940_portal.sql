-- Portal (issue 14): the people who sign in to the web portal, their invitations and sessions, and
-- the audit log of every change made through the portal or the admin API.

-- An operator (back office, every account) or a member (one account). Emails are kept lower-cased.
CREATE TABLE portal_users (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('OPERATOR', 'MEMBER')),
  account_id integer REFERENCES accounts (id),
  -- scrypt hash; null until an invited member sets a password.
  password_hash text,
  created_at timestamptz NOT NULL,
  removed_at timestamptz,
  CHECK ((role = 'MEMBER') = (account_id IS NOT NULL))
);
-- One live user per email: sign-in is by email alone.
CREATE UNIQUE INDEX portal_users_email ON portal_users (email) WHERE removed_at IS NULL;
CREATE INDEX portal_users_account ON portal_users (account_id) WHERE account_id IS NOT NULL;

-- One-time invitation links: only the SHA-256 of the token is stored.
CREATE TABLE portal_invitations (
  token_hash text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES portal_users (id),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

-- Server-side sessions: the cookie holds a random id whose SHA-256 is the key here.
CREATE TABLE portal_sessions (
  id_hash text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES portal_users (id),
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  revoked_at timestamptz,
  address text
);
CREATE INDEX portal_sessions_user ON portal_sessions (user_id);

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  -- 'admin-token' or 'operator:<id>' / 'member:<id>', with the email when a person acted.
  actor text NOT NULL,
  actor_email text,
  action text NOT NULL,
  account_id integer,
  target text,
  address text,
  before jsonb,
  after jsonb
);
CREATE INDEX audit_log_at ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_account ON audit_log (account_id, at DESC);

-- The service's own client-certificate CA: signs the CSRs accounts send through the portal.
-- One row, made on first use; the key never leaves the database.
CREATE TABLE client_ca (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  private_pkcs8_pem text NOT NULL,
  certificate_pem text NOT NULL,
  created_at timestamptz NOT NULL
);
