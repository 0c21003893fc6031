-- The bearer guard keeps "this credential and certificate are still active" in memory (issue 12,
-- item 3). Any change to either table (a revocation, a deletion) notifies `access_changed@<schema>`
-- at commit, from the changing transaction itself, and every instance forgets what it remembered.
CREATE OR REPLACE FUNCTION notify_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('access_changed@' || current_schema(), TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER credentials_access_changed AFTER UPDATE OR DELETE ON credentials
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();

CREATE TRIGGER certificates_access_changed AFTER UPDATE OR DELETE ON certificates
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
