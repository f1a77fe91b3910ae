-- Version 3: hints. A game in which the player asked for a hint is marked assisted.
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

ALTER TABLE current_games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0 CHECK (assisted IN (0, 1));

ALTER TABLE finished_games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0 CHECK (assisted IN (0, 1));
