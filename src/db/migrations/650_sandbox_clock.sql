-- The sandbox clock's lead over real time, so a restart does not take it back (tokens minted, and
-- deadlines passed, after an advance stay valid). One row; the lead only grows.
CREATE TABLE IF NOT EXISTS sandbox_clock (
  id smallint PRIMARY KEY CHECK (id = 1),
  offset_ms bigint NOT NULL CHECK (offset_ms >= 0),
  updated_at timestamptz NOT NULL
);
