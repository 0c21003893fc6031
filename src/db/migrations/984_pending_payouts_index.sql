-- The payouts waiting for the network's outcome, counted on every /metrics scrape (payouts_pending,
-- payouts_oldest_pending_seconds: issue 25) and by GET /admin/network/status: a partial index holds
-- only those rows, so neither reads the whole transactions table.
CREATE INDEX transactions_pending_payouts ON transactions (created_at) WHERE status = 'PENDING' AND kind IN ('WITHDRAW', 'REFUND_IN');
