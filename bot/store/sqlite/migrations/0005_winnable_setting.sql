-- Version 5: the setting for random new games proven winnable (off for everyone
-- before).
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

ALTER TABLE user_settings ADD COLUMN winnable INTEGER NOT NULL DEFAULT 0 CHECK (winnable IN (0, 1));
