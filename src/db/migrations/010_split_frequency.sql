-- The split frequency is one of a fixed set (charges: splits paid at once, every hour, or daily).
ALTER TABLE accounts ADD CONSTRAINT accounts_split_frequency CHECK (split_frequency IN ('IMMEDIATE', 'HOURLY', 'DAILY'));
