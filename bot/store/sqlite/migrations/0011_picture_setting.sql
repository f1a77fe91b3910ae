-- Version 11: the board as a picture (a PNG drawn by the bot) instead of monospace
-- text; off by default (the text board is the design's).
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

ALTER TABLE user_settings ADD COLUMN picture INTEGER NOT NULL DEFAULT 0 CHECK (picture IN (0, 1));
