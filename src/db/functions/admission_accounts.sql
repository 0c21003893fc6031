-- admission_accounts: what admit_payouts needs of its accounts (status, balance, fee, limits), one JSON object
-- keyed by account id, as debit_item_check reads it. Read as the caller's snapshot and locks allow.
CREATE OR REPLACE FUNCTION admission_accounts(p_ids bigint[], p_except bigint[])
RETURNS jsonb
LANGUAGE sql STABLE AS $fn$
  SELECT COALESCE(jsonb_object_agg(r.id::text, to_jsonb(r)), '{}'::jsonb)
    FROM (SELECT a.id, a.status, a.available, a.fee_cash_out_fixed, a.fee_cash_out_percent_bp, a.limit_per_transaction, a.limit_daily, a.limit_nightly
            FROM accounts a
           WHERE a.id = ANY (p_ids) AND NOT a.id = ANY (p_except)) r
$fn$;
