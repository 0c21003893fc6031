-- admission_apply: admit_payouts' phase 4, each new row in arrival order against the daily and night
-- limits and the balance, with totals kept under the locks, exactly as if the requests had run one
-- after the other. A refused row is added to p_refused (deleted later); an uncovered item with
-- failWith (a split payout) is kept, finished as ERROR (nothing held, nothing counted, no step).
-- Answers the totals to write back and the holds to make (a MED's money, already blocked, is not
-- held twice). A block item (`block`, no row: a MED's opening block) holds what is available of what
-- it asks, posted against its row, and answers 'blocked' with that amount (0: nothing held).
CREATE OR REPLACE FUNCTION admission_apply(p_items jsonb, p_day text, p_night text, p_now timestamptz, p_avail jsonb, p_fees bigint[],
  INOUT p_outcome text[], INOUT p_detail jsonb[], INOUT p_tx jsonb[], INOUT p_refused bigint[], INOUT p_totals jsonb, OUT o_holds jsonb)
LANGUAGE plpgsql AS $fn$
DECLARE
  avail jsonb := p_avail;
  item jsonb;
  row_ jsonb;
  a_id bigint;
  amt bigint;
  day_total bigint;
  night_total bigint;
BEGIN
  o_holds := '[]';
  FOR i IN 1..jsonb_array_length(p_items) LOOP
    CONTINUE WHEN p_outcome[i] IS NOT NULL;
    item := p_items -> (i - 1);
    a_id := (item->>'accountId')::bigint;
    amt := (item->>'amount')::bigint;
    IF item ? 'block' THEN
      amt := least(amt, greatest((avail -> a_id::text ->> 'available')::bigint, 0));
      p_outcome[i] := 'blocked';
      p_detail[i] := jsonb_build_object('amount', amt);
      CONTINUE WHEN amt = 0;
      avail := jsonb_set(avail, ARRAY[a_id::text, 'available'], to_jsonb((avail -> a_id::text ->> 'available')::bigint - amt));
      o_holds := o_holds || jsonb_build_object('accountId', a_id, 'amount', amt, 'transactionId', (item->'block'->>'transactionId')::bigint,
                                               'reason', item->>'holdReason');
      CONTINUE;
    END IF;
    day_total := COALESCE((p_totals ->> (a_id || '|' || p_day))::bigint, 0);
    night_total := COALESCE((p_totals ->> (a_id || '|' || p_night))::bigint, 0);
    IF (item->>'limited')::boolean AND day_total + amt > (avail -> a_id::text ->> 'limit_daily')::bigint THEN
      p_outcome[i] := 'PIX_DAILY_LIMIT_EXCEEDED';
      p_detail[i] := jsonb_build_object('limit', (avail -> a_id::text ->> 'limit_daily')::bigint);
    ELSIF (item->>'limited')::boolean AND p_night IS NOT NULL AND night_total + amt > (avail -> a_id::text ->> 'limit_nightly')::bigint THEN
      p_outcome[i] := 'PIX_NIGHT_LIMIT_EXCEEDED';
      p_detail[i] := jsonb_build_object('limit', (avail -> a_id::text ->> 'limit_nightly')::bigint);
    ELSIF NOT COALESCE((item->>'held')::boolean, false) AND (avail -> a_id::text ->> 'available')::bigint < amt + p_fees[i] THEN
      p_outcome[i] := 'INSUFFICIENT';
      IF jsonb_typeof(item->'failWith') = 'object' THEN
        UPDATE transactions t SET status = 'ERROR', error_code = item->'failWith'->>'errorCode', error_message = item->'failWith'->>'errorMessage',
                                  processed_at = p_now, updated_at = p_now
         WHERE t.id = (p_tx[i]->>'id')::bigint
        RETURNING to_jsonb(t.*) INTO row_;
        p_outcome[i] := 'failed';
        p_tx[i] := row_;
        CONTINUE;
      END IF;
    END IF;
    IF p_outcome[i] IS NOT NULL THEN
      p_refused := p_refused || (p_tx[i]->>'id')::bigint;
      p_tx[i] := NULL;
      CONTINUE;
    END IF;
    p_outcome[i] := 'admitted';
    IF (item->>'limited')::boolean THEN
      p_totals := p_totals || jsonb_build_object(a_id || '|' || p_day, day_total + amt);
      IF p_night IS NOT NULL THEN p_totals := p_totals || jsonb_build_object(a_id || '|' || p_night, night_total + amt); END IF;
    END IF;
    CONTINUE WHEN COALESCE((item->>'held')::boolean, false);
    avail := jsonb_set(avail, ARRAY[a_id::text, 'available'], to_jsonb((avail -> a_id::text ->> 'available')::bigint - amt - p_fees[i]));
    o_holds := o_holds || jsonb_build_object('accountId', a_id, 'amount', amt + p_fees[i], 'transactionId', (p_tx[i]->>'id')::bigint,
                                             'reason', COALESCE(item->>'holdReason', 'hold'), 'unposted', true);
  END LOOP;
END
$fn$;
