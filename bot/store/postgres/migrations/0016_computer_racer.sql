-- Version 16 (PostgreSQL): a race may have the computer as a racer, playing a move every
-- computer_pace_s seconds (NULL: no computer). Shipped: never edit this file.

ALTER TABLE races ADD COLUMN computer_pace_s INTEGER;
