-- admission_recheck: admit_payouts' phase 3, each new row's checks again on its account as locked
-- (what decides): a busy account's rows go (the caller runs them alone), a refusal now refuses, a fee
-- changed in between is rewritten on the row. A row that goes is added to p_refused (deleted later).
-- The items still to admit are those without an outcome yet: the new rows, and the blocks (no row).
CREATE OR REPLACE FUNCTION admission_recheck(p_items jsonb, p_avail jsonb, p_busy bigint[], p_max_amount bigint,
  INOUT p_outcome text[], INOUT p_detail jsonb[], INOUT p_tx jsonb[], INOUT p_fees bigint[], INOUT p_refused bigint[])
LANGUAGE plpgsql AS $fn$
DECLARE
  item jsonb;
  checked record;
  row_ jsonb;
BEGIN
  FOR i IN 1..jsonb_array_length(p_items) LOOP
    CONTINUE WHEN p_outcome[i] IS NOT NULL;
    item := p_items -> (i - 1);
    IF (item->>'accountId')::bigint = ANY (p_busy) OR (item->>'receiverId')::bigint = ANY (p_busy) THEN
      p_outcome[i] := 'BUSY';
    ELSE
      SELECT c.outcome, c.detail, c.fee INTO checked FROM debit_item_check(item, p_avail -> (item->>'accountId'), p_max_amount) c;
      p_outcome[i] := checked.outcome;
      p_detail[i] := checked.detail;
      IF checked.outcome IS NULL AND checked.fee <> p_fees[i] THEN
        p_fees[i] := checked.fee;
        UPDATE transactions t SET fee_amount = p_fees[i], final_amount = t.original_amount + p_fees[i]
         WHERE t.id = (p_tx[i]->>'id')::bigint
        RETURNING to_jsonb(t.*) INTO row_;
        p_tx[i] := row_;
      END IF;
    END IF;
    IF p_outcome[i] IS NOT NULL AND p_tx[i] IS NOT NULL THEN
      p_refused := p_refused || (p_tx[i]->>'id')::bigint;
      p_tx[i] := NULL;
    END IF;
  END LOOP;
END
$fn$;
