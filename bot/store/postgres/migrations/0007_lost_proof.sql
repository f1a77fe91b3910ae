-- Version 7 (PostgreSQL): a hint's proof that a current game is lost.
-- Shipped: never edit this file.

ALTER TABLE current_games ADD COLUMN lost_line TEXT;

ALTER TABLE current_games ADD COLUMN lost_back INTEGER;
