-- Account suspension (issue 30 item 4): an operator suspends an account (POST
-- /admin/accounts/{id}/suspend) and reactivates it. A suspended account keeps its reads and its
-- incoming PIX; only the calls that move its money out are refused (ACCOUNT_SUSPENDED). Every
-- existing account is ACTIVE; a build from before this one ignores the column (and inserts ACTIVE).
ALTER TABLE accounts ADD COLUMN status text NOT NULL DEFAULT 'ACTIVE';
ALTER TABLE accounts ADD CONSTRAINT accounts_status_check CHECK (status IN ('ACTIVE', 'SUSPENDED'));
