-- The key of the keyed hash (HMAC-SHA256) of generated client secrets when CLIENT_SECRET_HASH_KEY is
-- not set: made once by the first instance, shared by all of them and kept across restarts, so a
-- stored hash always verifies. One row. Production should set CLIENT_SECRET_HASH_KEY instead (a key
-- kept apart from the hashes it protects); this row then only verifies hashes made before.
CREATE TABLE IF NOT EXISTS client_secret_hash_key (
  id smallint PRIMARY KEY CHECK (id = 1),
  key bytea NOT NULL CHECK (octet_length(key) >= 32),
  created_at timestamptz NOT NULL
);
