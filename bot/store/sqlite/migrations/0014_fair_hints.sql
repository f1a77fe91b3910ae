-- Version 14: the kind of hint a player gets: fair (1, the default: the blind player's
-- move, which never sees the stock's order) or the solver's (0, which knows it).
-- Shipped: never edit this file; a change of schema is a new file with the next number
-- (docs/storage.md, "Migrations").

ALTER TABLE user_settings ADD COLUMN fair_hints INTEGER NOT NULL DEFAULT 1 CHECK (fair_hints IN (0, 1));
