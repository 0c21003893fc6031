-- Rate-limit and failure counters are not money and need no crash safety: an unlogged table's
-- commits do not wait for the WAL flush. Every token request counts its attempt (and gives a right
-- secret's count back) on the caller's address row, so on a durable table all token requests from one
-- address queued behind one fsync each (~50 tokens/s on PostgreSQL, and lock timeouts beyond). After a
-- crash (or on a promoted standby) the counters start again from zero: at worst a guesser gets one
-- more window's budget, which a generated secret's 128 bits make worthless.
ALTER TABLE rate_limit_windows SET UNLOGGED;
