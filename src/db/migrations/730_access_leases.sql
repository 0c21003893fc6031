-- The still-active memory of the bearer guard, exact across instances (issue 12, item 3; see
-- docs/decisions.md "Revocation exact with the still-active memory on").
--
-- access_change: one counter, bumped by every statement that updates or deletes credentials or
-- certificates, inside that statement's transaction. Its row lock orders the changes: change n+1
-- cannot take its number before change n committed, so "has seen n" covers every change <= n.
CREATE TABLE access_change (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  n bigint NOT NULL
);
INSERT INTO access_change (singleton, n) VALUES (true, 0);

-- One row per running instance that may serve still-active answers from memory.
--   seen:        the highest change number whose effect the instance has dropped from its memory
--                (written only after it forgot);
--   lease_until: until when it may serve from memory (database clock). A renewal extends it only
--                when seen >= the counter (see the heartbeat in src/services/auth/access-lease.ts):
--                a lease can never outlive an unacknowledged change by more than its length.
CREATE TABLE access_instances (
  id text PRIMARY KEY,
  seen bigint NOT NULL,
  lease_until timestamptz NOT NULL,
  beat_at timestamptz NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL
);

-- notify_access_changed (the triggers of migration 690) bumps access_change and notifies its new
-- value: src/db/functions/notify_access_changed.sql.

