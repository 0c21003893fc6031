-- ledger_apply_singly: ledger_apply's entries of the accounts whose summed update did not fit their
-- balance (not in p_moved), applied one by one in order, so each entry's result is exactly that of
-- applying the entries one after the other: applied (balance after it), or the reason it was not.
CREATE OR REPLACE FUNCTION ledger_apply_singly(p_entries jsonb, p_d_av bigint, p_d_bl bigint, p_now timestamptz, p_moved jsonb,
  INOUT p_ok boolean[], INOUT p_av bigint[], INOUT p_bl bigint[], INOUT p_err text[])
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  e jsonb;
  acc bigint;
  amt bigint;
  cur_av bigint;
  cur_bl bigint;
BEGIN
  FOR i IN 1..jsonb_array_length(p_entries) LOOP
    e := p_entries -> (i - 1);
    acc := (e->>'accountId')::bigint;
    CONTINUE WHEN p_ok[i];
    CONTINUE WHEN p_moved ? acc::text;
    amt := (e->>'amount')::bigint;
    UPDATE accounts a
       SET available = a.available + p_d_av * amt, blocked = a.blocked + p_d_bl * amt, updated_at = p_now
     WHERE a.id = acc AND a.available + p_d_av * amt >= 0 AND a.blocked + p_d_bl * amt >= 0
    RETURNING a.available, a.blocked INTO cur_av, cur_bl;
    IF FOUND THEN
      p_ok[i] := true;
      p_av[i] := cur_av;
      p_bl[i] := cur_bl;
    ELSIF NOT EXISTS (SELECT 1 FROM accounts WHERE id = acc) THEN
      p_err[i] := 'ACCOUNT_NOT_FOUND';
    ELSIF p_d_av < 0 THEN
      p_err[i] := 'INSUFFICIENT_FUNDS';
    ELSE
      p_err[i] := 'INSUFFICIENT_BLOCKED';
    END IF;
  END LOOP;
END
$fn$;
