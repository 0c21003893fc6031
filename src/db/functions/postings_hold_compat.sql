-- postings_hold_compat: the trigger of migration 1400, for rolling deploys only. A build before 1400
-- settles or releases a debit as if its hold had been posted (blocked -> counter; blocked ->
-- available). For a debit held without postings (transactions.hold_unposted) that would leave the
-- journal a hold it never had: the settlement's customer leg is posted from `available` instead, and
-- the release, which moves nothing the journal knows of, is not posted.
CREATE OR REPLACE FUNCTION postings_hold_compat() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM transactions WHERE id = NEW.transaction_id AND hold_unposted) THEN
    IF NEW.reason = 'release' THEN
      RETURN NULL;
    END IF;
    NEW.bucket := 'available';
  END IF;
  RETURN NEW;
END
$$;
