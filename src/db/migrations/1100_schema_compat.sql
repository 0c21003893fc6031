-- Rolling upgrades never go back in time (issue 28 item 4). A migration that an older build cannot
-- live with (it drops or renames what older builds read, or adds a NOT NULL they do not fill) raises
-- min_generation to its own number in the same file:
--   UPDATE schema_compat SET min_generation = greatest(min_generation, NNNN);
-- and every build of a lower generation (src/db/migrate.ts buildGeneration) then answers GET /ready
-- with 503 and the reason, instead of failing requests. Additive migrations leave it alone.
CREATE TABLE schema_compat (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  min_generation integer NOT NULL
);
INSERT INTO schema_compat (singleton, min_generation) VALUES (true, 0);
