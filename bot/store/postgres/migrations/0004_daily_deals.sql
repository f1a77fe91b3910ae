-- Version 4 (PostgreSQL): the deal chosen for each date's daily, with the solver's
-- winning line. Shipped: never edit this file.

CREATE TABLE daily_deals (
    day         TEXT COLLATE "C" PRIMARY KEY,   -- ISO date (UTC)
    deal_number INTEGER NOT NULL,
    line        TEXT,               -- the winning line, ';'-separated; NULL: no proof
    par         INTEGER             -- moves in the line; NULL: no proof
);
