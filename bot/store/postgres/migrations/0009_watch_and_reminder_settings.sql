-- Version 9 (PostgreSQL): whether others may watch the player's games, and the streak
-- reminder. Shipped: never edit this file.

ALTER TABLE user_settings ADD COLUMN watchable INTEGER NOT NULL DEFAULT 1 CHECK (watchable IN (0, 1));

ALTER TABLE user_settings ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0 CHECK (reminders IN (0, 1));
