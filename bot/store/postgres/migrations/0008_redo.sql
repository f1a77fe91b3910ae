-- Version 8 (PostgreSQL): the moves a player took back and may play again (redo).
-- Shipped: never edit this file.

ALTER TABLE current_games ADD COLUMN redo_moves TEXT NOT NULL DEFAULT '';
