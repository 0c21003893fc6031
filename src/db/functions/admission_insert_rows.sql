-- admission_insert_rows: admit_payouts' phase 1, the PENDING rows of the items that passed the first
-- checks (p_fees set), one insert in key order (two batches never wait on each other's unique keys in
-- a cycle), where the unique (account, externalId) index decides duplicates. A duplicate another
-- transaction is inserting or settling right now is waited for here, holding no counter and no
-- account. An item whose row was not inserted answers DUPLICATE with the existing transaction's id.
-- A held item (a MED's money, already blocked and posted) keeps hold_unposted NULL. A block item
-- (`block`: a MED's opening block on the disputed PIX) has no row of its own: none is inserted.
CREATE OR REPLACE FUNCTION admission_insert_rows(p_items jsonb, p_fees bigint[], p_now timestamptz,
  INOUT p_outcome text[], INOUT p_detail jsonb[], OUT o_tx jsonb[])
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  n int := jsonb_array_length(p_items);
  added_ record;
  item jsonb;
BEGIN
  o_tx := array_fill(NULL::jsonb, ARRAY[n]);
  FOR added_ IN
    WITH wanted AS (
      SELECT o::int AS i, x, (x->'tx'->>'transaction_id')::uuid AS tx_id
        FROM jsonb_array_elements(p_items) WITH ORDINALITY AS t (x, o) WHERE p_fees[o] IS NOT NULL AND x->'block' IS NULL),
    added AS (
      INSERT INTO transactions (transaction_id, account_id, kind, status, origin, family, external_id, original_amount,
                                fee_amount, final_amount, end_to_end_id, pix_key, description, error_code, error_message,
                                counterpart, metadata, parent_id, scenario, hold_unposted, created_at, processed_at, updated_at)
      SELECT tx_id, (x->>'accountId')::bigint, COALESCE(x->>'kind', 'WITHDRAW'), 'PENDING', x->'tx'->>'origin',
             x->'tx'->>'family', x->'tx'->>'external_id', (x->>'amount')::bigint, p_fees[i], (x->>'amount')::bigint + p_fees[i],
             x->'tx'->>'end_to_end_id', x->'tx'->>'pix_key', x->'tx'->>'description', NULL, NULL,
             x->'tx'->'counterpart', COALESCE(x->'tx'->'metadata', '{}'::jsonb), (x->'tx'->>'parent_id')::bigint, x->'tx'->>'scenario',
             CASE WHEN COALESCE((x->>'held')::boolean, false) THEN NULL ELSE true END, p_now, NULL, p_now
        FROM wanted
       ORDER BY (x->>'accountId')::bigint, x->'tx'->>'external_id'
      ON CONFLICT (account_id, external_id) WHERE external_id IS NOT NULL DO NOTHING
      RETURNING *)
    -- Each row back to its item by its transactionId, in one join (not a scan of the items per row).
    SELECT w.i, to_jsonb(added.*) AS tx FROM added JOIN wanted w ON w.tx_id = added.transaction_id
  LOOP
    o_tx[added_.i] := added_.tx;
  END LOOP;
  FOR i IN 1..n LOOP
    CONTINUE WHEN p_fees[i] IS NULL OR o_tx[i] IS NOT NULL OR p_items -> (i - 1) ? 'block';
    item := p_items -> (i - 1);
    p_outcome[i] := 'DUPLICATE';
    p_detail[i] := jsonb_build_object('existingTransactionId', (
      SELECT t.transaction_id FROM transactions t
       WHERE t.account_id = (item->>'accountId')::bigint AND t.external_id = item->'tx'->>'external_id'));
  END LOOP;
END
$fn$;
