-- The portal's attempt log of a transaction's webhook deliveries reads the attempts (and the resends,
-- which belong to no delivery) of the transaction's events.
CREATE INDEX webhook_logs_event ON webhook_logs (event_id) WHERE event_id IS NOT NULL;
-- The admin panel's System page: deliveries that failed at least once and are not delivered.
CREATE INDEX webhook_deliveries_failing ON webhook_deliveries (id) WHERE status = 'failed' OR (status = 'pending' AND attempts > 0);
