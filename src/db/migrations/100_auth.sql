-- Keys that sign access tokens. Created on first start; rotation adds a key and retires the old one,
-- whose public half stays published and verifiable until the last token it signed has expired.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  alg text NOT NULL,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  retired_at timestamptz
);
-- At most one key signs at a time.
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys ((true)) WHERE retired_at IS NULL;
