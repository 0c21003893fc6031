-- admit_payouts: THE admission of every debit, server-side (issues 11 and 12; issue 22 item 3: the
-- payouts, refunds and devoluções, split payouts and MED returns, each origin's rules as data in its
-- items): the only implementation of the limit, balance and duplicate rules (the fee: the account's
-- cash-out fee by pix_fee, for the origins that pay one), for a group-commit batch of many payouts
-- or a batch of one, in ONE call: outside a transaction a batch is one round trip and one commit.
-- (The name stays: a function's argument list and name are what older instances call.)
-- The phases, one function each (issue 28 item 5: no function over ~80 lines):
--   1. before anything is locked (issue 28 item 2: no deadlock): per item, in arrival order, the checks
--      that need no running total on its account as read (admission_first_checks); then the PENDING
--      rows, one insert in key order, where the unique (account, externalId) index decides duplicates
--      (admission_insert_rows). A duplicate whose row another transaction is inserting or settling
--      right now is waited for there, holding no counter and no account: waiting for it with the
--      accounts locked (the order used to lock first) closed a cycle with that settlement, which locks
--      the same account after the row;
--   2. the limit counters (created when missing), then the accounts, locked in key order: the order
--      every payout and settlement path takes them in (admission_lock);
--   3. per new row, the same checks again on the account as locked (admission_recheck: what decides;
--      a fee changed in between is rewritten on the row);
--   4. per new row, in arrival order, the daily and night limits and the balance, against totals
--      kept under the locks, exactly as if the requests had run one after the other
--      (admission_apply); a refused row is deleted;
--   5. here: the counters raised, the admitted payouts' next jobs inserted, and their holds
--      (ledger_apply, without postings: the PENDING row is the hold, migration 1400).
-- Items: [{idx, accountId, receiverId (an on-us payout's receiver, locked with the payers), limited,
--          amount, tx: {the transactions row's own columns}, job: the next job's payload or null,
--          and the rules of its origin (issue 22 item 3: every debit origin goes through here, its
--          rules as data; absent, a cash-out's):
--          kind ('WITHDRAW' | 'REFUND_IN'), chargesFee (the account's cash-out fee; refunds, split
--          payouts and MED returns pay none), holdReason (the hold's posting reason, 'hold'),
--          held (the money is already blocked, a MED's: no balance check, no hold),
--          failWith ({errorCode, errorMessage}: an uncovered debit is kept as ERROR, a split
--          payout, instead of being refused)}],
--        or a block (a MED's opening block: docs/decisions.md): {idx, accountId, amount (the most to
--          hold), block: {origin, transactionId}, holdReason, stopsWhenSuspended, chargesFee false,
--          limited false}: no row, no step, no limits; locked, checked and applied like a debit, it
--          holds min(amount, available) under the lock, posted against its row.
-- Answers one row per item: outcome 'admitted' with the stored row, 'failed' with the ERROR row
-- (failWith), 'blocked' with the amount held ({amount}), or a refusal code with details.
-- An item is still to admit while it has no outcome (a new row, or a block).
-- The group-commit batch's bulkhead (issue 20, item 2): a batch never waits long on one account.
-- p_wait_ms NULL (a batch of one inside the caller's transaction, the single path): the locks are
-- waited for as the session allows (DB_LOCK_TIMEOUT_MS), as before. p_wait_ms set (a group-commit batch, one statement of its own):
-- the counters and accounts are locked in the one order (counters by key, then accounts by id)
-- waiting at most p_wait_ms for them all; past that the attempt is undone (its subtransaction rolls
-- back and frees what it took) and every counter and account that is free now is taken without
-- waiting (SKIP LOCKED). The items of an account still held elsewhere (a locked row, a command
-- waiting on it), or whose counters for these windows do not exist yet, answer 'BUSY' and change
-- nothing: the caller runs them alone, where they wait for the lock within its own bound. So one
-- locked account delays a batch by at most p_wait_ms, never by the lock timeout, and the batch
-- never waits outside the lock order. In both modes the waits for the counters and for the
-- accounts share one budget (p_wait_ms, or the session's lock_timeout), where each lock used to get
-- the whole lock timeout: a payout waiting on its counters and then on its row waited twice.
CREATE OR REPLACE FUNCTION admit_payouts(
  p_items jsonb, p_day text, p_night text, p_now timestamptz, p_max_amount bigint, p_job_kind text, p_job_max_attempts int, p_wait_ms int)
RETURNS TABLE (idx int, outcome text, detail jsonb, tx jsonb)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  n int := jsonb_array_length(p_items);
  windows text[] := array_remove(ARRAY[p_day, p_night], NULL);
  res_outcome text[];
  res_detail jsonb[];
  res_tx jsonb[];
  fees bigint[];
  totals jsonb := '{}';
  avail jsonb;
  holds jsonb;
  refused bigint[] := '{}';
  held record;
  wanted bigint[];
  limited bigint[];
  busy bigint[] := '{}';
BEGIN
  IF n = 0 THEN RETURN; END IF;
  wanted := ARRAY(SELECT DISTINCT (x->>'accountId')::bigint FROM jsonb_array_elements(p_items) x
                  UNION SELECT (x->>'receiverId')::bigint FROM jsonb_array_elements(p_items) x WHERE x->>'receiverId' IS NOT NULL);
  limited := ARRAY(SELECT DISTINCT (x->>'accountId')::bigint FROM jsonb_array_elements(p_items) x WHERE (x->>'limited')::boolean);

  -- 1. Before any lock: the checks on each account as read, then the rows (duplicates decided here).
  avail := admission_accounts(wanted, '{}');
  -- A batch never waits before its lock phase: an account another session holds FOR UPDATE (which the
  -- foreign-key check of a row's insert would wait for) is busy at once; its items run alone.
  IF p_wait_ms IS NOT NULL THEN
    busy := ARRAY(SELECT a.id FROM accounts a WHERE a.id = ANY (wanted)
                  EXCEPT SELECT k.id FROM (SELECT a.id FROM accounts a WHERE a.id = ANY (wanted) ORDER BY a.id FOR KEY SHARE SKIP LOCKED) k);
  END IF;
  SELECT c.o_outcome, c.o_detail, c.o_fees INTO res_outcome, res_detail, fees FROM admission_first_checks(p_items, avail, busy, p_max_amount) c;
  SELECT r.p_outcome, r.p_detail, r.o_tx INTO res_outcome, res_detail, res_tx FROM admission_insert_rows(p_items, fees, p_now, res_outcome, res_detail) r;
  IF array_position(res_outcome, NULL) IS NULL THEN
    RETURN QUERY SELECT g.i, res_outcome[g.i], res_detail[g.i], res_tx[g.i] FROM generate_series(1, n) AS g (i);
    RETURN;
  END IF;
  -- Only the accounts of items still to admit are locked (a refused or duplicate item needs no lock).
  wanted := ARRAY(SELECT DISTINCT (p_items -> (g.i - 1) ->> 'accountId')::bigint FROM generate_series(1, n) g (i) WHERE res_outcome[g.i] IS NULL
                  UNION SELECT (p_items -> (g.i - 1) ->> 'receiverId')::bigint FROM generate_series(1, n) g (i)
                         WHERE res_outcome[g.i] IS NULL AND p_items -> (g.i - 1) ->> 'receiverId' IS NOT NULL);
  limited := ARRAY(SELECT l FROM unnest(limited) l WHERE l = ANY (wanted));

  -- 2. Counters, then accounts, in the one lock order; what stays busy runs alone.
  busy := busy || admission_lock(wanted, limited, windows, p_wait_ms);
  avail := admission_accounts(wanted, busy);
  SELECT COALESCE(jsonb_object_agg(u.account_id || '|' || u.window_key, u.total), '{}') INTO totals
    FROM payout_limit_usage u
   WHERE u.window_key = ANY (windows) AND u.account_id = ANY (limited) AND NOT u.account_id = ANY (busy);

  -- 3. The new rows' checks again, on the accounts as locked. 4. Limits and balance, in arrival order.
  SELECT r.p_outcome, r.p_detail, r.p_tx, r.p_fees, r.p_refused INTO res_outcome, res_detail, res_tx, fees, refused
    FROM admission_recheck(p_items, avail, busy, p_max_amount, res_outcome, res_detail, res_tx, fees, refused) r;
  SELECT a.p_outcome, a.p_detail, a.p_tx, a.p_refused, a.p_totals, a.o_holds INTO res_outcome, res_detail, res_tx, refused, totals, holds
    FROM admission_apply(p_items, p_day, p_night, p_now, avail, fees, res_outcome, res_detail, res_tx, refused, totals) a;

  -- 5. Refused rows gone, counters raised, next jobs written, the money held (no postings: the PENDING row is the hold).
  IF refused <> '{}' THEN DELETE FROM transactions WHERE id = ANY (refused); END IF;
  UPDATE payout_limit_usage u SET total = (totals ->> (u.account_id || '|' || u.window_key))::bigint
   WHERE u.window_key = ANY (windows) AND totals ? (u.account_id || '|' || u.window_key)
     AND u.total IS DISTINCT FROM (totals ->> (u.account_id || '|' || u.window_key))::bigint;
  INSERT INTO jobs (kind, run_at, payload, max_attempts, created_at, updated_at)
  SELECT p_job_kind, p_now, (p_items -> (g.i - 1) -> 'job') || jsonb_build_object('id', (res_tx[g.i]->>'id')::bigint), p_job_max_attempts, p_now, p_now
    FROM generate_series(1, n) AS g (i)
   WHERE res_outcome[g.i] = 'admitted' AND jsonb_typeof(p_items -> (g.i - 1) -> 'job') = 'object'
   ORDER BY g.i;
  IF jsonb_array_length(holds) > 0 THEN
    FOR held IN SELECT * FROM ledger_apply('hold', holds, p_now, true) LOOP
      IF NOT held.ok THEN RAISE EXCEPTION 'admit_payouts: a hold failed under the account lock (%)', held.error; END IF;
    END LOOP;
  END IF;

  RETURN QUERY SELECT g.i, res_outcome[g.i], res_detail[g.i], res_tx[g.i] FROM generate_series(1, n) AS g (i);
END
$fn$;
