-- Version 9: two settings for playing together: whether others may watch the
-- player's games (`/reel watch`; on by default), and an opt-in reminder before the
-- UTC rollover when the player's daily streak would break (off by default).
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

ALTER TABLE user_settings ADD COLUMN watchable INTEGER NOT NULL DEFAULT 1 CHECK (watchable IN (0, 1));
ALTER TABLE user_settings ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0 CHECK (reminders IN (0, 1));
