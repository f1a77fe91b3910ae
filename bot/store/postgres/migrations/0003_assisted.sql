-- Version 3 (PostgreSQL): hints. A game in which the player asked for a hint is marked
-- assisted. Shipped: never edit this file.

ALTER TABLE current_games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0 CHECK (assisted IN (0, 1));

ALTER TABLE finished_games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0 CHECK (assisted IN (0, 1));
