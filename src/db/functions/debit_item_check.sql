-- debit_item_check: the checks of one debit item that need no running total (admit_payouts step 2),
-- against its account's settings as read: the account exists, the amount plus its fee stays within
-- the maximum, the per-transaction limit where the origin is limited; a call the account makes to
-- send money (stopsWhenSuspended) from a SUSPENDED account is refused (issue 30 item 4: decided here,
-- on the account as locked, with no read of its own per request). Answers outcome NULL and the
-- fee when the item passes, else the refusal code (and its detail). admit_payouts runs it twice: on
-- the settings read before anything is locked (to decide which rows to insert, the duplicates being
-- decided before any lock: issue 28 item 2) and on the settings read under the account's lock (what
-- decides).
CREATE OR REPLACE FUNCTION debit_item_check(p_item jsonb, p_account jsonb, p_max_amount bigint)
RETURNS TABLE (outcome text, detail jsonb, fee bigint)
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
  amt bigint := (p_item->>'amount')::bigint;
  item_fee bigint;
BEGIN
  IF p_account IS NULL THEN
    RETURN QUERY SELECT 'NOT_FOUND'::text, NULL::jsonb, NULL::bigint;
    RETURN;
  END IF;
  IF COALESCE((p_item->>'stopsWhenSuspended')::boolean, false) AND p_account->>'status' = 'SUSPENDED' THEN
    RETURN QUERY SELECT 'ACCOUNT_SUSPENDED'::text, NULL::jsonb, NULL::bigint;
    RETURN;
  END IF;
  item_fee := CASE WHEN COALESCE((p_item->>'chargesFee')::boolean, true)
                   THEN pix_fee(amt, (p_account->>'fee_cash_out_fixed')::bigint, (p_account->>'fee_cash_out_percent_bp')::int)
                   ELSE 0 END;
  IF amt + item_fee > p_max_amount THEN
    RETURN QUERY SELECT 'PIX_INVALID_AMOUNT'::text, NULL::jsonb, NULL::bigint;
  ELSIF (p_item->>'limited')::boolean AND amt > (p_account->>'limit_per_transaction')::bigint THEN
    RETURN QUERY SELECT 'PIX_TRANSACTION_LIMIT_EXCEEDED'::text, jsonb_build_object('limit', (p_account->>'limit_per_transaction')::bigint), NULL::bigint;
  ELSE
    RETURN QUERY SELECT NULL::text, NULL::jsonb, item_fee;
  END IF;
END
$fn$;
