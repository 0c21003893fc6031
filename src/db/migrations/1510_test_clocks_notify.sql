-- Which accounts are on a test clock is kept in memory by each instance (it is asked on every
-- account request in sandbox mode); a change to the clocks or their accounts tells every instance to
-- read it again (src/db/functions/notify_test_clocks.sql).
CREATE TRIGGER test_clocks_notify AFTER INSERT OR UPDATE OR DELETE ON test_clocks
  FOR EACH STATEMENT EXECUTE FUNCTION notify_test_clocks();
CREATE TRIGGER test_clock_accounts_notify AFTER INSERT OR UPDATE OR DELETE ON test_clock_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_test_clocks();
