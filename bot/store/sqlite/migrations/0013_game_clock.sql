-- Version 13: the game clock counts the time the player spent on the game, not the time
-- since the deal: played_ms, the milliseconds counted up to updated_at (each pause
-- between two actions counted up to a cap, by the service: docs/rules.md, "The clock").
-- A game in play keeps the clock it showed: the time from its deal to its last action.
-- Shipped: never edit this file; a change of schema is a new file with the next number
-- (docs/storage.md, "Migrations").

ALTER TABLE current_games ADD COLUMN played_ms INTEGER NOT NULL DEFAULT 0;
UPDATE current_games
SET played_ms = max(0, CAST(round((julianday(updated_at) - julianday(started_at)) * 86400000)
    AS INTEGER))
WHERE julianday(updated_at) IS NOT NULL AND julianday(started_at) IS NOT NULL;
