-- pix_fee: THE fee, for every origin that pays one (decisions 4.8): the fixed part plus the percent
-- of the amount, the percent part rounded half-up to the cent on its own (exact integer arithmetic:
-- amount * basis points stays far below 2^63), then added. Which settings apply is the caller's:
-- the account's own payouts (cash-out, QR code, /dict/pix) its cash-out fee (admit_payouts), every
-- PIX credited to it (charges paid, PIX received, on-us credits, suspense assigned) its cash-in fee,
-- read with the account by accountsRepo.withFee. Refunds, MED returns, payout refunds and split
-- payouts carry no fee. Debits pay amount + fee, credits receive amount - fee; the callers refuse
-- with PIX_INVALID_AMOUNT a fee that leaves nothing to pay.
-- Out of its domain (a negative amount, settings the accounts table's CHECKs refuse) it answers NULL,
-- which no caller can store (fee_amount is NOT NULL). SQL, immutable and not strict: the planner
-- inlines it into the statements that call it.
CREATE OR REPLACE FUNCTION pix_fee(p_amount bigint, p_fixed bigint, p_percent_bp int)
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_amount >= 0 AND p_fixed >= 0 AND p_percent_bp BETWEEN 0 AND 10000
              THEN p_fixed + (p_amount * p_percent_bp + 5000) / 10000 END
$$;
