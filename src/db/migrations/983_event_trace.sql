-- The W3C trace id an event belongs to (issue 25): the traced request that emitted it, or a fresh
-- trace for work no traced request caused. Every delivery attempt of the event, and every resend,
-- sends `traceparent` with this trace id and a new span id, so a receiver's logs and ours meet.
-- Events written before this migration have none: their attempts get a fresh trace each.
ALTER TABLE events ADD COLUMN trace_id text;
