-- Version 13 (PostgreSQL): the game clock counts the time the player spent on the game:
-- played_ms, the milliseconds counted up to updated_at. A game in play keeps the clock it
-- showed, the time from its deal to its last action. Shipped: never edit this file.

ALTER TABLE current_games ADD COLUMN played_ms BIGINT NOT NULL DEFAULT 0;
UPDATE current_games
SET played_ms = greatest(0, round(extract(epoch FROM
    (updated_at::timestamptz - started_at::timestamptz)) * 1000))::bigint;
