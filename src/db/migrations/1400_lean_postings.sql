-- Issue 28 item 1, a leaner write path per cash-out.
-- 1. A debit admitted by admit_payouts holds its money without postings: while the transaction is
--    PENDING, the row itself is the hold (the pending set), as a pending transfer is in TigerBeetle.
--    Its settlement posts one journal, available -> counter (+ fee); its release posts nothing. The
--    ledger check reads the pending holds beside the postings (src/ledger/ledger-check.ts). That
--    saves the hold's two postings and, on a release, two more. Rows whose hold was posted (a MED's
--    block, every row of a build before this migration) keep NULL here and settle as before.
ALTER TABLE transactions ADD COLUMN hold_unposted boolean;

-- 2. Indexes no reader uses: nothing reads postings by id, by account or by transaction (the ledger
--    check and the provider statement check scan by ledger account or aggregate everything). Each
--    costs an entry per posting on the hot path.
DROP INDEX IF EXISTS postings_account;
DROP INDEX IF EXISTS postings_transaction;
ALTER TABLE postings DROP CONSTRAINT IF EXISTS postings_pkey;

-- 3. A build before this migration (rolling deploy) that settles or releases a debit held without
--    postings would post against a hold that was never posted. This trigger maps its postings onto
--    this migration's model (src/db/functions/postings_hold_compat.sql). This build never fires it
--    for such a debit (it posts the settlement from `available` and no release); a later migration
--    drops it once no build before 1400 can run.
CREATE TRIGGER postings_hold_compat BEFORE INSERT ON postings FOR EACH ROW
  WHEN (NEW.account_id IS NOT NULL AND NEW.transaction_id IS NOT NULL
        AND ((NEW.reason = 'settle' AND NEW.bucket = 'blocked') OR NEW.reason = 'release'))
  EXECUTE FUNCTION postings_hold_compat();
