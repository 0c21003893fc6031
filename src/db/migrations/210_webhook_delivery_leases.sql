-- A claim's lease, on the database server's real clock: a liveness measure, so moving the sandbox
-- clock (business time: due times and retries) cannot end it while the attempt is in flight.
ALTER TABLE webhook_deliveries ADD COLUMN lease_until timestamptz;
