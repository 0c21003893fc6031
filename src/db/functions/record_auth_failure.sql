-- record_auth_failure (decisions 7; src/services/auth/failure-limits.ts; table auth_failures of
-- migration 960) records one failed check, all or nothing, exactly under concurrency: the keys'
-- rows (created when missing) are locked in key order, the order every caller takes them in, so two failures never
-- deadlock and each sees the other's. The failure is admitted only while every deciding key is
-- under its limit; then it is appended to every key (deciding or only recording), each keeping its
-- newest `limit` times. A failure not admitted changes nothing (the attempt answers 429, and a
-- request refused with 429 is not counted). Answers whether it was admitted and each key's times
-- (epoch milliseconds, oldest first) after the call, for the Retry-After.
CREATE OR REPLACE FUNCTION record_auth_failure(p_keys text[], p_limits int[], p_deciding boolean[], p_now timestamptz, p_window_s int, p_family text)
RETURNS TABLE (o_admitted boolean, o_key text, o_failures jsonb)
LANGUAGE plpgsql AS $fn$
DECLARE
  since timestamptz := p_now - make_interval(secs => p_window_s);
  admitted boolean;
BEGIN
  INSERT INTO auth_failures (key, failed_at, expires_at)
  SELECT k, '{}', p_now FROM unnest(p_keys) AS k ORDER BY k
  ON CONFLICT (key) DO NOTHING;

  PERFORM 1 FROM auth_failures f WHERE f.key = ANY (p_keys) ORDER BY f.key FOR UPDATE;
  -- A statement of its own: its snapshot, taken under the locks, sees every failure committed before.
  SELECT coalesce(bool_and(NOT x.deciding OR (SELECT count(*) FROM unnest(f.failed_at) AS t WHERE t > since) < x.lim), true)
    INTO admitted
    FROM auth_failures f JOIN unnest(p_keys, p_limits, p_deciding) AS x (k, lim, deciding) ON f.key = x.k;

  IF admitted THEN
    UPDATE auth_failures f
       SET failed_at = ARRAY(
             SELECT t FROM (
               SELECT t FROM unnest(f.failed_at) AS t WHERE t > since
               UNION ALL SELECT p_now
               ORDER BY 1 DESC LIMIT x.lim
             ) AS newest ORDER BY 1),
           expires_at = p_now + make_interval(secs => p_window_s)
      FROM unnest(p_keys, p_limits) AS x (k, lim)
     WHERE f.key = x.k;
  END IF;

  RETURN QUERY
    SELECT admitted, f.key,
           to_jsonb(ARRAY(SELECT (extract(epoch FROM t) * 1000)::bigint FROM unnest(f.failed_at) AS t WHERE t > since ORDER BY t))
      FROM auth_failures f WHERE f.key = ANY (p_keys);

  -- Rows whose failures have all left their window, a few per failure: the table stays the size of
  -- the last window's failing keys. Only rows of the caller's family ('api:' keys run on the service
  -- clock, 'portal:' keys on real time: one family's "now" says nothing about the other's rows).
  -- Rows another failure holds are left for later.
  DELETE FROM auth_failures WHERE key IN (
    SELECT key FROM auth_failures
     WHERE expires_at < p_now AND starts_with(key, p_family || ':') AND NOT (key = ANY (p_keys))
     ORDER BY expires_at LIMIT 20 FOR UPDATE SKIP LOCKED);
END;
$fn$;
