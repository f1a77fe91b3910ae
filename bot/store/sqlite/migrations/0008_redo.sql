-- Version 8: the moves a player took back and may play again (redo), kept across a
-- restart. Shipped: never edit this file; a change of schema is a new file with the
-- next number (docs/storage.md, "Migrations").

ALTER TABLE current_games ADD COLUMN redo_moves TEXT NOT NULL DEFAULT '';  -- a line, next first
