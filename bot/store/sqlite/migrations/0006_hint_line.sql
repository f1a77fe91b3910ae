-- Version 6: the winning line a current game's hints continue, kept across a
-- restart.
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

ALTER TABLE current_games ADD COLUMN hint_line TEXT;  -- ';'-separated; NULL: none
