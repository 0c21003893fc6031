-- admit_payouts: THE admission of every debit, server-side (issues 11 and 12; issue 22 item 3: the
-- payouts, refunds and devoluções, split payouts and MED returns, each origin's rules as data in its
-- items): the only implementation of the limit, balance and duplicate rules (the fee: the account's
-- cash-out fee by pix_fee, for the origins that pay one), for a group-commit batch of many payouts
-- or a batch of one, in ONE call: outside a transaction a batch is one round trip and one commit.
-- (The name stays: a function's argument list and name are what older instances call.)
--   1. before anything is locked (issue 28 item 2: no deadlock): per item, in arrival order, the checks
--      that need no running total (debit_item_check) on its account as read; then the PENDING rows,
--      one insert in key order, where the unique (account, externalId) index decides duplicates. A
--      duplicate whose row another transaction is inserting or settling right now is waited for here,
--      holding no counter and no account: waiting for it with the accounts locked (the order used to
--      lock first) closed a cycle with that settlement, which locks the same account after the row;
--   2. the limit counters (created when missing), then the accounts, locked in key order: the order
--      every payout and settlement path takes them in;
--   3. per new row, the same checks again on the account as locked (what decides; a fee changed in
--      between is rewritten on the row);
--   4. per new row, in arrival order, the daily and night limits and the balance, against totals
--      kept under the locks, exactly as if the requests had run one after the other; a refused row
--      is deleted;
--   5. the counters raised, the admitted payouts' next jobs inserted, and their holds
--      (ledger_apply, without postings: the PENDING row is the hold, migration 1400).
-- Items: [{idx, accountId, receiverId (an on-us payout's receiver, locked with the payers), limited,
--          amount, tx: {the transactions row's own columns}, job: the next job's payload or null,
--          and the rules of its origin (issue 22 item 3: every debit origin goes through here, its
--          rules as data; absent, a cash-out's):
--          kind ('WITHDRAW' | 'REFUND_IN'), chargesFee (the account's cash-out fee; refunds, split
--          payouts and MED returns pay none), holdReason (the hold's posting reason, 'hold'),
--          held (the money is already blocked, a MED's: no balance check, no hold),
--          failWith ({errorCode, errorMessage}: an uncovered debit is kept as ERROR, a split
--          payout, instead of being refused)}].
-- Answers one row per item: outcome 'admitted' with the stored row, 'failed' with the ERROR row
-- (failWith), or a refusal code with details.
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
  res_outcome text[] := array_fill(NULL::text, ARRAY[n]);
  res_detail jsonb[] := array_fill(NULL::jsonb, ARRAY[n]);
  res_tx jsonb[] := array_fill(NULL::jsonb, ARRAY[n]);
  fees bigint[] := array_fill(NULL::bigint, ARRAY[n]);
  totals jsonb := '{}';
  avail jsonb := '{}';
  holds jsonb := '[]';
  refused bigint[] := '{}';
  item jsonb;
  acc record;
  row_ jsonb;
  i int;
  a_id bigint;
  amt bigint;
  day_total bigint;
  night_total bigint;
  held record;
  checked record;
  wanted bigint[];
  limited bigint[];
  busy bigint[] := '{}';
  free_counters text[];
  free_accounts bigint[];
  session_lock_timeout text := current_setting('lock_timeout');
  budget double precision;
  started timestamptz;
  left_ms double precision;
BEGIN
  IF n = 0 THEN RETURN; END IF;
  wanted := ARRAY(SELECT DISTINCT (x->>'accountId')::bigint FROM jsonb_array_elements(p_items) x
                  UNION SELECT (x->>'receiverId')::bigint FROM jsonb_array_elements(p_items) x WHERE x->>'receiverId' IS NOT NULL);
  limited := ARRAY(SELECT DISTINCT (x->>'accountId')::bigint FROM jsonb_array_elements(p_items) x WHERE (x->>'limited')::boolean);

  -- 1. Before any lock: the checks on each account as read, then the rows (duplicates decided here).
  FOR acc IN
    SELECT a.id, a.available, a.fee_cash_out_fixed, a.fee_cash_out_percent_bp, a.limit_per_transaction, a.limit_daily, a.limit_nightly
      FROM accounts a WHERE a.id = ANY (wanted)
  LOOP
    avail := avail || jsonb_build_object(acc.id::text, to_jsonb(acc));
  END LOOP;
  -- A batch never waits before its lock phase: an account another session holds FOR UPDATE (which the
  -- foreign-key check of a row's insert would wait for) is busy at once; its items run alone.
  IF p_wait_ms IS NOT NULL THEN
    busy := ARRAY(SELECT a.id FROM accounts a WHERE a.id = ANY (wanted)
                  EXCEPT SELECT k.id FROM (SELECT a.id FROM accounts a WHERE a.id = ANY (wanted) ORDER BY a.id FOR KEY SHARE SKIP LOCKED) k);
  END IF;
  FOR i IN 1..n LOOP
    item := p_items -> (i - 1);
    IF (item->>'accountId')::bigint = ANY (busy) OR (item->>'receiverId')::bigint = ANY (busy) THEN
      res_outcome[i] := 'BUSY';
      CONTINUE;
    END IF;
    SELECT c.outcome, c.detail, c.fee INTO checked FROM debit_item_check(item, avail -> (item->>'accountId'), p_max_amount) c;
    IF checked.outcome IS NULL THEN fees[i] := checked.fee; ELSE res_outcome[i] := checked.outcome; res_detail[i] := checked.detail; END IF;
  END LOOP;
  -- One insert in key order (two batches never wait on each other's unique keys in a cycle).
  FOR row_ IN
    WITH wanted AS (
      SELECT o::int AS i, x FROM jsonb_array_elements(p_items) WITH ORDINALITY AS t (x, o) WHERE fees[o] IS NOT NULL),
    added AS (
      INSERT INTO transactions (transaction_id, account_id, kind, status, origin, family, external_id, original_amount,
                                fee_amount, final_amount, end_to_end_id, pix_key, description, error_code, error_message,
                                counterpart, metadata, parent_id, scenario, hold_unposted, created_at, processed_at, updated_at)
      SELECT (x->'tx'->>'transaction_id')::uuid, (x->>'accountId')::bigint, COALESCE(x->>'kind', 'WITHDRAW'), 'PENDING', x->'tx'->>'origin',
             x->'tx'->>'family', x->'tx'->>'external_id', (x->>'amount')::bigint, fees[i], (x->>'amount')::bigint + fees[i],
             x->'tx'->>'end_to_end_id', x->'tx'->>'pix_key', x->'tx'->>'description', NULL, NULL,
             x->'tx'->'counterpart', COALESCE(x->'tx'->'metadata', '{}'::jsonb), (x->'tx'->>'parent_id')::bigint, x->'tx'->>'scenario',
             CASE WHEN COALESCE((x->>'held')::boolean, false) THEN NULL ELSE true END, p_now, NULL, p_now
        FROM wanted
       ORDER BY (x->>'accountId')::bigint, x->'tx'->>'external_id'
      ON CONFLICT (account_id, external_id) WHERE external_id IS NOT NULL DO NOTHING
      RETURNING *)
    SELECT to_jsonb(added.*) FROM added
  LOOP
    -- Back to its item by its transactionId.
    FOR i IN 1..n LOOP
      IF fees[i] IS NOT NULL AND p_items -> (i - 1) -> 'tx' ->> 'transaction_id' = row_->>'transaction_id' THEN
        res_tx[i] := row_;
        EXIT;
      END IF;
    END LOOP;
  END LOOP;
  FOR i IN 1..n LOOP
    CONTINUE WHEN fees[i] IS NULL OR res_tx[i] IS NOT NULL;
    item := p_items -> (i - 1);
    res_outcome[i] := 'DUPLICATE';
    res_detail[i] := jsonb_build_object('existingTransactionId', (
      SELECT t.transaction_id FROM transactions t
       WHERE t.account_id = (item->>'accountId')::bigint AND t.external_id = item->'tx'->>'external_id'));
  END LOOP;
  IF NOT EXISTS (SELECT 1 FROM unnest(res_tx) r WHERE r IS NOT NULL) THEN
    RETURN QUERY SELECT g.i, res_outcome[g.i], res_detail[g.i], res_tx[g.i] FROM generate_series(1, n) AS g (i);
    RETURN;
  END IF;
  -- Only the accounts of new rows are locked (a refused or duplicate item needs no lock).
  wanted := ARRAY(SELECT DISTINCT (p_items -> (g.i - 1) ->> 'accountId')::bigint FROM generate_series(1, n) g (i) WHERE res_tx[g.i] IS NOT NULL
                  UNION SELECT (p_items -> (g.i - 1) ->> 'receiverId')::bigint FROM generate_series(1, n) g (i)
                         WHERE res_tx[g.i] IS NOT NULL AND p_items -> (g.i - 1) ->> 'receiverId' IS NOT NULL);
  limited := ARRAY(SELECT l FROM unnest(limited) l WHERE l = ANY (wanted));

  -- 2. Counters first, created when missing and locked, in key order; then the accounts, in id order.
  -- The lock waits of this phase together stay within one budget: p_wait_ms for a batch, else the
  -- session's lock timeout (a per-lock bound: counters, then the account, would each get it whole).
  budget := COALESCE(p_wait_ms::double precision, extract(epoch FROM session_lock_timeout::interval) * 1000);
  started := clock_timestamp();
  BEGIN
    IF budget > 0 THEN PERFORM set_config('lock_timeout', greatest(floor(budget), 1) || 'ms', true); END IF;
    IF windows <> '{}' THEN
      INSERT INTO payout_limit_usage (account_id, window_key, total)
      SELECT l.account_id, w.key, 0
        FROM unnest(limited) AS l (account_id)
        JOIN accounts a ON a.id = l.account_id
       CROSS JOIN unnest(windows) AS w (key)
       ORDER BY l.account_id, w.key
      ON CONFLICT (account_id, window_key) DO UPDATE SET total = payout_limit_usage.total;
    END IF;
    IF budget > 0 THEN
      left_ms := budget - extract(epoch FROM clock_timestamp() - started) * 1000;
      IF left_ms < 1 THEN
        RAISE EXCEPTION 'admit_payouts: the limit counters took the whole lock budget (% ms)', budget USING ERRCODE = 'lock_not_available';
      END IF;
      PERFORM set_config('lock_timeout', floor(left_ms) || 'ms', true);
    END IF;
    PERFORM 1 FROM accounts a WHERE a.id = ANY (wanted) ORDER BY a.id FOR NO KEY UPDATE;
    -- The session's own bound again for the rest (a failed block restores it by itself).
    PERFORM set_config('lock_timeout', session_lock_timeout, true);
  EXCEPTION WHEN lock_not_available THEN
    IF p_wait_ms IS NULL THEN RAISE; END IF;
    -- What is free now, taken without waiting (in the same order); the rest is busy.
    SELECT COALESCE(array_agg(k.key), '{}') INTO free_counters FROM (
      SELECT u.account_id || '|' || u.window_key AS key FROM payout_limit_usage u
       WHERE u.account_id = ANY (limited) AND u.window_key = ANY (windows)
       ORDER BY u.account_id, u.window_key FOR NO KEY UPDATE SKIP LOCKED) k;
    SELECT COALESCE(array_agg(f.id), '{}') INTO free_accounts FROM (
      SELECT a.id FROM accounts a WHERE a.id = ANY (wanted) ORDER BY a.id FOR NO KEY UPDATE SKIP LOCKED) f;
    busy := busy || ARRAY(
      SELECT l.account_id FROM unnest(limited) AS l (account_id)
       WHERE EXISTS (SELECT 1 FROM unnest(windows) AS w (key) WHERE NOT (l.account_id || '|' || w.key) = ANY (free_counters))
      UNION
      SELECT a.id FROM accounts a WHERE a.id = ANY (wanted) AND NOT a.id = ANY (free_accounts));
  END;
  avail := '{}';
  FOR acc IN
    SELECT a.id, a.available, a.fee_cash_out_fixed, a.fee_cash_out_percent_bp, a.limit_per_transaction, a.limit_daily, a.limit_nightly
      FROM accounts a
     WHERE a.id = ANY (wanted) AND NOT a.id = ANY (busy)
  LOOP
    avail := avail || jsonb_build_object(acc.id::text, to_jsonb(acc));
  END LOOP;
  FOR acc IN
    SELECT u.account_id, u.window_key, u.total FROM payout_limit_usage u
     WHERE u.window_key = ANY (windows) AND u.account_id = ANY (limited) AND NOT u.account_id = ANY (busy)
  LOOP
    totals := totals || jsonb_build_object(acc.account_id || '|' || acc.window_key, acc.total);
  END LOOP;

  -- 3. The new rows' checks again, on the accounts as locked: a busy account's rows go (the caller
  -- runs them alone), a refusal now refuses, a fee changed in between is rewritten on the row.
  FOR i IN 1..n LOOP
    CONTINUE WHEN res_tx[i] IS NULL;
    item := p_items -> (i - 1);
    IF (item->>'accountId')::bigint = ANY (busy) OR (item->>'receiverId')::bigint = ANY (busy) THEN
      res_outcome[i] := 'BUSY';
    ELSE
      SELECT c.outcome, c.detail, c.fee INTO checked FROM debit_item_check(item, avail -> (item->>'accountId'), p_max_amount) c;
      res_outcome[i] := checked.outcome;
      res_detail[i] := checked.detail;
      IF checked.outcome IS NULL AND checked.fee <> fees[i] THEN
        fees[i] := checked.fee;
        UPDATE transactions t SET fee_amount = fees[i], final_amount = t.original_amount + fees[i]
         WHERE t.id = (res_tx[i]->>'id')::bigint
        RETURNING to_jsonb(t.*) INTO row_;
        res_tx[i] := row_;
      END IF;
    END IF;
    IF res_outcome[i] IS NOT NULL THEN
      refused := refused || (res_tx[i]->>'id')::bigint;
      res_tx[i] := NULL;
    END IF;
  END LOOP;

  -- 4. Each new row against the running totals and balance, in arrival order.
  FOR i IN 1..n LOOP
    CONTINUE WHEN res_tx[i] IS NULL;
    item := p_items -> (i - 1);
    a_id := (item->>'accountId')::bigint;
    amt := (item->>'amount')::bigint;
    day_total := COALESCE((totals ->> (a_id || '|' || p_day))::bigint, 0);
    night_total := COALESCE((totals ->> (a_id || '|' || p_night))::bigint, 0);
    IF (item->>'limited')::boolean AND day_total + amt > (avail -> a_id::text ->> 'limit_daily')::bigint THEN
      res_outcome[i] := 'PIX_DAILY_LIMIT_EXCEEDED';
      res_detail[i] := jsonb_build_object('limit', (avail -> a_id::text ->> 'limit_daily')::bigint);
    ELSIF (item->>'limited')::boolean AND p_night IS NOT NULL AND night_total + amt > (avail -> a_id::text ->> 'limit_nightly')::bigint THEN
      res_outcome[i] := 'PIX_NIGHT_LIMIT_EXCEEDED';
      res_detail[i] := jsonb_build_object('limit', (avail -> a_id::text ->> 'limit_nightly')::bigint);
    ELSIF NOT COALESCE((item->>'held')::boolean, false) AND (avail -> a_id::text ->> 'available')::bigint < amt + fees[i] THEN
      res_outcome[i] := 'INSUFFICIENT';
      IF jsonb_typeof(item->'failWith') = 'object' THEN
        -- Kept, finished as ERROR: nothing held, nothing counted, no step.
        UPDATE transactions t SET status = 'ERROR', error_code = item->'failWith'->>'errorCode', error_message = item->'failWith'->>'errorMessage',
                                  processed_at = p_now, updated_at = p_now
         WHERE t.id = (res_tx[i]->>'id')::bigint
        RETURNING to_jsonb(t.*) INTO row_;
        res_outcome[i] := 'failed';
        res_tx[i] := row_;
        CONTINUE;
      END IF;
    END IF;
    IF res_outcome[i] IS NOT NULL THEN
      refused := refused || (res_tx[i]->>'id')::bigint;
      res_tx[i] := NULL;
      CONTINUE;
    END IF;
    res_outcome[i] := 'admitted';
    IF (item->>'limited')::boolean THEN
      totals := totals || jsonb_build_object(a_id || '|' || p_day, day_total + amt);
      IF p_night IS NOT NULL THEN totals := totals || jsonb_build_object(a_id || '|' || p_night, night_total + amt); END IF;
    END IF;
    -- Money a MED already blocked is not held twice.
    CONTINUE WHEN COALESCE((item->>'held')::boolean, false);
    avail := jsonb_set(avail, ARRAY[a_id::text, 'available'], to_jsonb((avail -> a_id::text ->> 'available')::bigint - amt - fees[i]));
    holds := holds || jsonb_build_object('accountId', a_id, 'amount', amt + fees[i], 'transactionId', (res_tx[i]->>'id')::bigint, 'reason', COALESCE(item->>'holdReason', 'hold'), 'unposted', true);
  END LOOP;

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
