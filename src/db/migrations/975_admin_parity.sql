-- Admin API parity (issue 21 item 3): webhook signing-secret rotation with an overlap, test
-- deliveries in the attempt log, and the admin token's audit actor named `admin-api`.

-- The secret replaced by the last rotation keeps signing (beside the new one) until
-- `previous_valid_until` on the service clock (WEBHOOK_SECRET_OVERLAP_S after the rotation).
ALTER TABLE webhook_secrets ADD COLUMN previous_secret text;
ALTER TABLE webhook_secrets ADD COLUMN previous_valid_until timestamptz;
ALTER TABLE webhook_secrets ADD COLUMN rotated_at timestamptz;

-- A test delivery (POST /admin/accounts/{id}/webhooks/test, the portal's "Send test event") is logged
-- like any attempt; it belongs to no stored event, so its event type is kept on the log row.
ALTER TABLE webhook_logs DROP CONSTRAINT IF EXISTS webhook_logs_kind_check;
ALTER TABLE webhook_logs ADD CONSTRAINT webhook_logs_kind_check CHECK (kind IN ('delivery', 'resend', 'test'));
ALTER TABLE webhook_logs ADD COLUMN event_type text;

-- GET /admin/accounts/{id}/webhook-deliveries reads an account's attempts newest first by id;
-- webhook_logs_account (account_id, id) already serves it.

-- The admin token's actor was recorded as `admin-token`; the fixed contract names it `admin-api`.
-- Same actor, new name: old rows are renamed so one filter finds all of its changes.
UPDATE audit_log SET actor = 'admin-api' WHERE actor = 'admin-token';
