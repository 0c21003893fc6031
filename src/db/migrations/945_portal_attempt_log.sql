-- The portal's attempt log of a transaction's webhook deliveries reads the attempts (and the resends,
-- which belong to no delivery) of the transaction's events.
CREATE INDEX webhook_logs_event ON webhook_logs (event_id) WHERE event_id IS NOT NULL;
