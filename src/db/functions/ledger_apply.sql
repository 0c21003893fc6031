-- ledger_apply: the ledger's one movement, server-side (issue 12: one round trip per command). ledger_apply moves
-- customer balances and writes the balanced postings of every entry in one call: the entries of
-- each account are summed and applied by one conditional UPDATE; an account whose sum its balance
-- does not cover is applied entry by entry, so each entry's result is exactly that of applying the
-- entries one after the other. Results: one row per entry, in order, with the balance after it.
--   hold:    available -> blocked           settle: blocked -> counter (+ fee to fee_revenue)
--   release: blocked -> available           credit: counter -> available (+ fee to fee_revenue)
-- Entries: [{accountId, amount, transactionId, reason, counter, fee, unposted}] (amounts in cents,
-- checked by the caller). `unposted`: a debit held without postings (migration 1400, the admission's
-- holds): its hold and release move the balances only, its settlement posts available -> counter.
-- p_locked: the caller already holds the accounts' row locks, taken in id order.
CREATE OR REPLACE FUNCTION ledger_apply(p_op text, p_entries jsonb, p_now timestamptz, p_locked boolean)
RETURNS TABLE (idx int, ok boolean, available bigint, blocked bigint, error text)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  d_av bigint;
  d_bl bigint;
  n int := jsonb_array_length(p_entries);
  res_ok boolean[] := array_fill(false, ARRAY[n]);
  res_av bigint[] := array_fill(NULL::bigint, ARRAY[n]);
  res_bl bigint[] := array_fill(NULL::bigint, ARRAY[n]);
  res_err text[] := array_fill(NULL::text, ARRAY[n]);
  final_bal jsonb := '{}';
  r record;
  i int;
  e jsonb;
  acc bigint;
  amt bigint;
  cur_av bigint;
  cur_bl bigint;
BEGIN
  CASE p_op
    WHEN 'hold' THEN d_av := -1; d_bl := 1;
    WHEN 'settle' THEN d_av := 0; d_bl := -1;
    WHEN 'release' THEN d_av := 1; d_bl := -1;
    WHEN 'credit' THEN d_av := 1; d_bl := 0;
    ELSE RAISE EXCEPTION 'ledger_apply: unknown operation %', p_op;
  END CASE;
  IF n = 0 THEN RETURN; END IF;

  -- Several accounts: their rows locked in id order first, so two movements never deadlock.
  IF NOT p_locked AND (SELECT count(DISTINCT x->>'accountId') FROM jsonb_array_elements(p_entries) x) > 1 THEN
    PERFORM 1 FROM accounts
      WHERE id IN (SELECT (x->>'accountId')::bigint FROM jsonb_array_elements(p_entries) x)
      ORDER BY id FOR NO KEY UPDATE;
  END IF;

  -- Each account's sum in one conditional update.
  FOR r IN
    WITH sums AS (
      SELECT (x->>'accountId')::bigint AS account_id, sum((x->>'amount')::bigint) AS total
        FROM jsonb_array_elements(p_entries) x GROUP BY 1)
    UPDATE accounts a
       SET available = a.available + d_av * s.total, blocked = a.blocked + d_bl * s.total, updated_at = p_now
      FROM sums s
     WHERE a.id = s.account_id AND a.available + d_av * s.total >= 0 AND a.blocked + d_bl * s.total >= 0
    RETURNING a.id, a.available, a.blocked
  LOOP
    final_bal := final_bal || jsonb_build_object(r.id::text, jsonb_build_array(r.available, r.blocked));
  END LOOP;

  -- Moved accounts: the balance after each entry is the final one minus what later entries moved.
  FOR i IN REVERSE n..1 LOOP
    e := p_entries -> (i - 1);
    acc := (e->>'accountId')::bigint;
    IF final_bal ? acc::text THEN
      amt := (e->>'amount')::bigint;
      cur_av := (final_bal -> acc::text ->> 0)::bigint;
      cur_bl := (final_bal -> acc::text ->> 1)::bigint;
      res_ok[i] := true;
      res_av[i] := cur_av;
      res_bl[i] := cur_bl;
      final_bal := final_bal || jsonb_build_object(acc::text, jsonb_build_array(cur_av - d_av * amt, cur_bl - d_bl * amt));
    END IF;
  END LOOP;

  -- Accounts whose sum did not fit: entry by entry, in order.
  SELECT x.p_ok, x.p_av, x.p_bl, x.p_err INTO res_ok, res_av, res_bl, res_err
    FROM ledger_apply_singly(p_entries, d_av, d_bl, p_now, final_bal, res_ok, res_av, res_bl, res_err) x;

  -- The postings of every applied entry: one journal each, summing to zero.
  PERFORM ledger_post(p_op, p_entries, res_ok, p_now);

  RETURN QUERY SELECT g.i, res_ok[g.i], res_av[g.i], res_bl[g.i], res_err[g.i] FROM generate_series(1, n) AS g (i);
END
$fn$;
