-- Issue 23 item 3: events_account (account_id, id) is read by no statement: events are read by id
-- (webhook deliveries and logs join on it) and by transaction (events_transaction: resends, the
-- portal's deliveries and attempts of a transaction); accounts are never deleted (the foreign key
-- needs no index for that). It cost one index entry and ~100 B of WAL per event.
DROP INDEX IF EXISTS events_account;
