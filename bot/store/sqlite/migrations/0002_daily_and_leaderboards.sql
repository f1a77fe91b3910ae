-- Version 2: the daily challenge (attempts, dates) and the leaderboards'
-- totals and indexes, derived from the results already recorded.
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

ALTER TABLE current_games ADD COLUMN daily_date TEXT;

ALTER TABLE current_games ADD COLUMN scored INTEGER NOT NULL DEFAULT 1 CHECK (scored IN (0, 1));

ALTER TABLE finished_games ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0;

-- The moves in each list: its ';'-separated entries.
UPDATE finished_games SET move_count = CASE WHEN moves = '' THEN 0 ELSE length(moves) - length(replace(moves, ';', '')) + 1 END;

-- At most one scored daily per user and date: keep the first if v1 had more.
UPDATE finished_games SET daily_date = NULL
WHERE daily_date IS NOT NULL AND id NOT IN (
    SELECT min(id) FROM finished_games WHERE daily_date IS NOT NULL
    GROUP BY user_id, daily_date);

CREATE UNIQUE INDEX finished_games_daily_by_user ON finished_games (user_id, daily_date) WHERE daily_date IS NOT NULL;

-- The daily rankings: won DESC, score DESC, move_count, finished_at, user_id.
CREATE INDEX finished_games_daily_rank ON finished_games (daily_date, won DESC, score DESC, move_count, finished_at, user_id) WHERE daily_date IS NOT NULL;

CREATE INDEX finished_games_daily_guild_rank ON finished_games (daily_date, guild_id, won DESC, score DESC, move_count, finished_at, user_id) WHERE daily_date IS NOT NULL;

CREATE TABLE daily_attempts (       -- a user's scored daily of a date, once started
    user_id     INTEGER NOT NULL,
    daily_date  TEXT    NOT NULL,
    guild_id    INTEGER,
    deal_number INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    PRIMARY KEY (user_id, daily_date)
) WITHOUT ROWID;

INSERT INTO daily_attempts SELECT user_id, daily_date, guild_id, deal_number, started_at FROM finished_games WHERE daily_date IS NOT NULL;

CREATE TABLE player_totals (        -- per user, over all their finished games
    user_id     INTEGER PRIMARY KEY,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    best_score  INTEGER NOT NULL,
    dailies     INTEGER NOT NULL,   -- scored dailies finished
    daily_wins  INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    last_daily  TEXT,               -- the latest of their scored dailies' dates
    daily_run   INTEGER NOT NULL    -- consecutive dates ending at last_daily
);

-- The all-time rankings: wins, then the win rate, NULL (ranked after any rate) below
-- MIN_GAMES_FOR_RATE = 5 games (bot/store/records.py), then games and user id. The
-- queries write the same expression, so SQLite reads the ranking off the index.
CREATE INDEX player_totals_rank ON player_totals (wins DESC, (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);

CREATE TABLE guild_player_totals (  -- per server and user, games credited to the server
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE INDEX guild_player_totals_rank ON guild_player_totals (guild_id, wins DESC, (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);

INSERT INTO player_totals
SELECT user_id, count(*), sum(won), max(score), count(daily_date),
       sum(won AND daily_date IS NOT NULL), 0, max(daily_date), 0
FROM finished_games GROUP BY user_id;

-- Each user's best streak, and the run ending at their latest date, from the runs of
-- consecutive dates among their scored dailies (gaps and islands: a date minus its
-- rank is constant along a run).
UPDATE player_totals SET best_streak = (SELECT coalesce(max(n), 0) FROM (
    SELECT count(*) AS n, max(daily_date) AS last FROM (
        SELECT daily_date,
               julianday(daily_date) - row_number() OVER (ORDER BY daily_date) AS island
        FROM finished_games WHERE user_id = player_totals.user_id AND daily_date IS NOT NULL)
    GROUP BY island
)), daily_run = coalesce((SELECT n FROM (
    SELECT count(*) AS n, max(daily_date) AS last FROM (
        SELECT daily_date,
               julianday(daily_date) - row_number() OVER (ORDER BY daily_date) AS island
        FROM finished_games WHERE user_id = player_totals.user_id AND daily_date IS NOT NULL)
    GROUP BY island
) ORDER BY last DESC LIMIT 1), 0) WHERE last_daily IS NOT NULL;

INSERT INTO guild_player_totals
SELECT guild_id, user_id, count(*), sum(won)
FROM finished_games WHERE guild_id IS NOT NULL GROUP BY guild_id, user_id;
