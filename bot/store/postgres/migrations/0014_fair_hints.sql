-- Version 14 (PostgreSQL): the kind of hint a player gets: fair (1, the default) or the
-- solver's (0). Shipped: never edit this file.

ALTER TABLE user_settings ADD COLUMN fair_hints INTEGER NOT NULL DEFAULT 1 CHECK (fair_hints IN (0, 1));
