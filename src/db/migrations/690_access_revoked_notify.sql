-- The bearer guard keeps "this credential and certificate are still active" in memory (issue 12,
-- item 3). Any change to either table (a revocation, a deletion) notifies `access_changed@<schema>`
-- at commit, from the changing transaction itself, and every instance forgets what it remembered.
-- The trigger function notify_access_changed is code: src/db/functions/notify_access_changed.sql
-- (migrate applies trigger functions before the migrations that create their triggers).

CREATE TRIGGER credentials_access_changed AFTER UPDATE OR DELETE ON credentials
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();

CREATE TRIGGER certificates_access_changed AFTER UPDATE OR DELETE ON certificates
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
