-- Version 15: each daily's difficulty, rated once from the blind player's games when the
-- deal is chosen (Easy, Medium, Hard or Expert; docs/daily.md) and never changed. NULL
-- for the dailies chosen before it. Shipped: never edit this file; a change of schema is
-- a new file with the next number (docs/storage.md, "Migrations").

ALTER TABLE daily_deals ADD COLUMN rating TEXT CHECK (rating IN ('Easy', 'Medium', 'Hard', 'Expert'));
