-- notify_access_changed: the trigger of every statement that updates or deletes credentials or
-- certificates (triggers of migration 690). The bearer guard keeps "this credential and certificate
-- are still active" in memory (issue 12, item 3); the change bumps the access_change counter (table
-- of migration 730) inside the changing transaction and notifies `access_changed@<schema>` with its
-- new value at commit, so every instance forgets what it remembered and acknowledges the number
-- (docs/decisions.md "Revocation exact with the still-active memory on").
CREATE OR REPLACE FUNCTION notify_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change bigint;
BEGIN
  UPDATE access_change SET n = n + 1 RETURNING n INTO change;
  PERFORM pg_notify('access_changed@' || current_schema(), change::text);
  RETURN NULL;
END
$$;
