-- Issue 23 item 3: the sandbox simulator's record of each payment it was asked to make (one row per
-- cash-out, ~540 B of WAL and a flush share) is the simulated network's state, not ours: it need
-- not survive a crash of the database. After one, an unlogged table is empty: a pending payout's
-- status check then reads not_found and the check step submits it again (payment-steps.ts), as it
-- does whenever the network never got a payment; the ledger, the transactions and their events stay
-- durable. Sandbox mode only writes it (production talks to the provider). No permanent table
-- references it. IF EXISTS: the simulator's tables belong to the network adapter.
ALTER TABLE IF EXISTS sandbox_network_payments SET UNLOGGED;
