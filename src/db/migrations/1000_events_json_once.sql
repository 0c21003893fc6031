-- Issue 23 item 3: an event's JSON was stored twice, as `payload` (jsonb) and as `body` (text: the
-- exact bytes receivers get and signatures cover; jsonb reorders keys and respaces). The json type
-- keeps its input text exactly, so one json column is both: `payload::text` is the body as emit
-- wrote it, and the drivers still parse the column into an object. New events write `payload` only.
-- Readers take COALESCE(body, payload::text): an older instance still running during a rolling
-- upgrade writes both (its jsonb payload goes in by the assignment cast, its body keeps the exact
-- text), and reads the same way already. The rows written before are stored once as well: their
-- exact text (body, or payload for those older than migration 200, as readers took it) moves into
-- payload and body is emptied, in the one rewrite the type change makes (under an exclusive lock
-- for its duration: emits wait for it). `body` can go once no older instance runs.
ALTER TABLE events
  ALTER COLUMN payload TYPE json USING COALESCE(body, payload::text)::json,
  ALTER COLUMN body TYPE text USING NULL::text;
