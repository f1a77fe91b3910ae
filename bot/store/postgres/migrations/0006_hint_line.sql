-- Version 6 (PostgreSQL): the winning line a current game's hints continue.
-- Shipped: never edit this file.

ALTER TABLE current_games ADD COLUMN hint_line TEXT;
