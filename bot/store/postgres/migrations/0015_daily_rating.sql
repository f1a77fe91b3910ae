-- Version 15 (PostgreSQL): each daily's difficulty (Easy, Medium, Hard or Expert; NULL for
-- the dailies chosen before it). Shipped: never edit this file.

ALTER TABLE daily_deals ADD COLUMN rating TEXT CHECK (rating IN ('Easy', 'Medium', 'Hard', 'Expert'));
