-- ledger_post: the postings of ledger_apply's applied entries (p_ok), one journal each, summing to
-- zero. Per operation: hold available -> blocked; settle blocked -> counter (+ fee to fee_revenue);
-- release blocked -> available; credit counter -> available (+ fee). An entry held without postings
-- (`unposted`, migration 1400) posts nothing on hold and release, and settles from `available`.
CREATE OR REPLACE FUNCTION ledger_post(p_op text, p_entries jsonb, p_ok boolean[], p_now timestamptz)
RETURNS void
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  d_av bigint;
  d_bl bigint;
  d_sys bigint;
BEGIN
  CASE p_op
    WHEN 'hold' THEN d_av := -1; d_bl := 1; d_sys := 0;
    WHEN 'settle' THEN d_av := 0; d_bl := -1; d_sys := 1;
    WHEN 'release' THEN d_av := 1; d_bl := -1; d_sys := 0;
    WHEN 'credit' THEN d_av := 1; d_bl := 0; d_sys := -1;
    ELSE RAISE EXCEPTION 'ledger_post: unknown operation %', p_op;
  END CASE;
  INSERT INTO postings (account_id, bucket, ledger_account, transaction_id, delta, reason, journal_id, created_at)
  SELECT p.account_id, p.bucket, p.ledger_account, s.tx, p.delta, s.reason, s.journal, p_now
    FROM (
      SELECT (x->>'accountId')::bigint AS account_id, (x->>'amount')::bigint AS amount,
             COALESCE((x->>'fee')::bigint, 0) AS fee, x->>'counter' AS counter,
             (x->>'transactionId')::bigint AS tx, x->>'reason' AS reason, gen_random_uuid() AS journal,
             COALESCE((x->>'unposted')::boolean, false) AS unposted
        FROM jsonb_array_elements(p_entries) WITH ORDINALITY AS t (x, o)
       WHERE p_ok[o]
    ) s
    CROSS JOIN LATERAL (VALUES
      (s.account_id, 'available', NULL::text, CASE WHEN NOT s.unposted THEN d_av * s.amount WHEN d_sys = 1 THEN -s.amount ELSE 0 END),
      (s.account_id, 'blocked', NULL::text, CASE WHEN s.unposted THEN 0 ELSE d_bl * s.amount END),
      (NULL::bigint, NULL::text, 'fee_revenue', CASE WHEN d_sys = 0 THEN 0 ELSE s.fee END),
      (NULL::bigint, NULL::text, s.counter, CASE d_sys WHEN 1 THEN s.amount - s.fee WHEN -1 THEN -(s.amount + s.fee) ELSE 0 END)
    ) AS p (account_id, bucket, ledger_account, delta)
   WHERE p.delta <> 0;
END
$fn$;
