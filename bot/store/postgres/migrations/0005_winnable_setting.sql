-- Version 5 (PostgreSQL): the setting for random new games proven winnable.
-- Shipped: never edit this file.

ALTER TABLE user_settings ADD COLUMN winnable INTEGER NOT NULL DEFAULT 0 CHECK (winnable IN (0, 1));
