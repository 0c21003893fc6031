-- admission_lock: admit_payouts' phase 2, the limit counters (created when missing) then the accounts,
-- locked in key order: the order every payout and settlement path takes them in. The waits of this
-- phase share one budget: p_wait_ms for a group-commit batch, else the session's lock timeout (a
-- per-lock bound would give the counters and then the account the whole timeout each). A batch whose
-- budget runs out undoes the attempt (its subtransaction frees what it took) and takes what is free now
-- without waiting (SKIP LOCKED), in the same order. Answers the accounts left busy (held elsewhere,
-- or whose counters for these windows do not exist yet): the caller runs their items alone. Without
-- p_wait_ms (a batch of one in the caller's transaction) a lock timeout is raised as it is.
CREATE OR REPLACE FUNCTION admission_lock(p_wanted bigint[], p_limited bigint[], p_windows text[], p_wait_ms int)
RETURNS bigint[]
LANGUAGE plpgsql AS $fn$
DECLARE
  session_lock_timeout text := current_setting('lock_timeout');
  budget double precision := COALESCE(p_wait_ms::double precision, extract(epoch FROM current_setting('lock_timeout')::interval) * 1000);
  started timestamptz := clock_timestamp();
  left_ms double precision;
  free_counters text[];
  free_accounts bigint[];
BEGIN
  BEGIN
    IF budget > 0 THEN PERFORM set_config('lock_timeout', greatest(floor(budget), 1) || 'ms', true); END IF;
    IF p_windows <> '{}' THEN
      INSERT INTO payout_limit_usage (account_id, window_key, total)
      SELECT l.account_id, w.key, 0
        FROM unnest(p_limited) AS l (account_id)
        JOIN accounts a ON a.id = l.account_id
       CROSS JOIN unnest(p_windows) AS w (key)
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
    PERFORM 1 FROM accounts a WHERE a.id = ANY (p_wanted) ORDER BY a.id FOR NO KEY UPDATE;
    -- The session's own bound again for the rest (a failed block restores it by itself).
    PERFORM set_config('lock_timeout', session_lock_timeout, true);
    RETURN '{}';
  EXCEPTION WHEN lock_not_available THEN
    IF p_wait_ms IS NULL THEN RAISE; END IF;
  END;
  -- What is free now, taken without waiting (in the same order); the rest is busy.
  SELECT COALESCE(array_agg(k.key), '{}') INTO free_counters FROM (
    SELECT u.account_id || '|' || u.window_key AS key FROM payout_limit_usage u
     WHERE u.account_id = ANY (p_limited) AND u.window_key = ANY (p_windows)
     ORDER BY u.account_id, u.window_key FOR NO KEY UPDATE SKIP LOCKED) k;
  SELECT COALESCE(array_agg(f.id), '{}') INTO free_accounts FROM (
    SELECT a.id FROM accounts a WHERE a.id = ANY (p_wanted) ORDER BY a.id FOR NO KEY UPDATE SKIP LOCKED) f;
  RETURN ARRAY(
    SELECT l.account_id FROM unnest(p_limited) AS l (account_id)
     WHERE EXISTS (SELECT 1 FROM unnest(p_windows) AS w (key) WHERE NOT (l.account_id || '|' || w.key) = ANY (free_counters))
    UNION
    SELECT a.id FROM accounts a WHERE a.id = ANY (p_wanted) AND NOT a.id = ANY (free_accounts));
END
$fn$;
