-- Version 11 (PostgreSQL): the board as a picture instead of monospace text; off by
-- default. Shipped: never edit this file.

ALTER TABLE user_settings ADD COLUMN picture INTEGER NOT NULL DEFAULT 0 CHECK (picture IN (0, 1));
