-- admission_first_checks: admit_payouts' phase 1, before anything is locked: per item, in arrival
-- order, the checks that need no running total (debit_item_check) on its account as read. An item
-- of a busy account answers BUSY (the caller runs it alone). Answers, per item, the refusal or the fee.
CREATE OR REPLACE FUNCTION admission_first_checks(p_items jsonb, p_avail jsonb, p_busy bigint[], p_max_amount bigint,
  OUT o_outcome text[], OUT o_detail jsonb[], OUT o_fees bigint[])
LANGUAGE plpgsql AS $fn$
DECLARE
  n int := jsonb_array_length(p_items);
  item jsonb;
  checked record;
BEGIN
  o_outcome := array_fill(NULL::text, ARRAY[n]);
  o_detail := array_fill(NULL::jsonb, ARRAY[n]);
  o_fees := array_fill(NULL::bigint, ARRAY[n]);
  FOR i IN 1..n LOOP
    item := p_items -> (i - 1);
    IF (item->>'accountId')::bigint = ANY (p_busy) OR (item->>'receiverId')::bigint = ANY (p_busy) THEN
      o_outcome[i] := 'BUSY';
      CONTINUE;
    END IF;
    SELECT c.outcome, c.detail, c.fee INTO checked FROM debit_item_check(item, p_avail -> (item->>'accountId'), p_max_amount) c;
    IF checked.outcome IS NULL THEN o_fees[i] := checked.fee; ELSE o_outcome[i] := checked.outcome; o_detail[i] := checked.detail; END IF;
  END LOOP;
END
$fn$;
