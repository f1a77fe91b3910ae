-- Version 7: a hint's proof that a current game is lost, kept across a restart.
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

ALTER TABLE current_games ADD COLUMN lost_line TEXT;  -- NULL: no proof

ALTER TABLE current_games ADD COLUMN lost_back INTEGER;
