-- Version 4: the deal chosen for each date's daily, with the solver's winning line.
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

CREATE TABLE daily_deals (
    day         TEXT PRIMARY KEY,   -- ISO date (UTC)
    deal_number INTEGER NOT NULL,
    line        TEXT,               -- the winning line, ';'-separated; NULL: no proof
    par         INTEGER             -- moves in the line; NULL: no proof
) WITHOUT ROWID;
