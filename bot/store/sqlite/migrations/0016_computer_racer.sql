-- Version 16: a race may have the computer as a racer: the blind player, who can't see
-- the stock either, playing a move every computer_pace_s seconds (NULL: no computer).
-- Its racer row has the race's id, negated, as its user id. Shipped: never edit this
-- file; a change of schema is a new file with the next number (docs/storage.md).

ALTER TABLE races ADD COLUMN computer_pace_s INTEGER;
