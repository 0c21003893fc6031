-- notify_test_clocks: the trigger of migration 1510. A statement that creates, moves or removes a
-- sandbox test clock, or puts accounts on one or takes them off, notifies at commit the channel
-- `test_clocks@<schema>`: every instance reads again which accounts are on a clock (its in-memory
-- membership, src/services/test-clocks/clock-membership.ts) instead of asking on every request.
CREATE OR REPLACE FUNCTION notify_test_clocks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('test_clocks@' || current_schema(), '');
  RETURN NULL;
END
$$;
