-- Version 2 (PostgreSQL): the daily challenge (attempts, dates) and the leaderboards'
-- totals and indexes, derived from the results already recorded (as SQLite's 0002).
-- Shipped: never edit this file.

ALTER TABLE current_games ADD COLUMN daily_date TEXT COLLATE "C";

ALTER TABLE current_games ADD COLUMN scored INTEGER NOT NULL DEFAULT 1 CHECK (scored IN (0, 1));

ALTER TABLE finished_games ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0;

UPDATE finished_games SET move_count = CASE WHEN moves = '' THEN 0 ELSE length(moves) - length(replace(moves, ';', '')) + 1 END;

UPDATE finished_games SET daily_date = NULL
WHERE daily_date IS NOT NULL AND id NOT IN (
    SELECT min(id) FROM finished_games WHERE daily_date IS NOT NULL
    GROUP BY user_id, daily_date);

CREATE UNIQUE INDEX finished_games_daily_by_user ON finished_games (user_id, daily_date) WHERE daily_date IS NOT NULL;

CREATE INDEX finished_games_daily_rank ON finished_games (daily_date, won DESC, score DESC, move_count, finished_at, user_id) WHERE daily_date IS NOT NULL;

CREATE INDEX finished_games_daily_guild_rank ON finished_games (daily_date, guild_id, won DESC, score DESC, move_count, finished_at, user_id) WHERE daily_date IS NOT NULL;

CREATE TABLE daily_attempts (
    user_id     BIGINT  NOT NULL,
    daily_date  TEXT COLLATE "C" NOT NULL,
    guild_id    BIGINT,
    deal_number INTEGER NOT NULL,
    started_at  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (user_id, daily_date)
);

INSERT INTO daily_attempts SELECT user_id, daily_date, guild_id, deal_number, started_at FROM finished_games WHERE daily_date IS NOT NULL;

CREATE TABLE player_totals (
    user_id     BIGINT  PRIMARY KEY,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    best_score  INTEGER NOT NULL,
    dailies     INTEGER NOT NULL,
    daily_wins  INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    last_daily  TEXT COLLATE "C",
    daily_run   INTEGER NOT NULL
);

CREATE INDEX player_totals_rank ON player_totals (wins DESC, (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);

CREATE TABLE guild_player_totals (
    guild_id BIGINT  NOT NULL,
    user_id  BIGINT  NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX guild_player_totals_rank ON guild_player_totals (guild_id, wins DESC, (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);

INSERT INTO player_totals
SELECT user_id, count(*), sum(won), max(score), count(daily_date),
       sum(CASE WHEN won = 1 AND daily_date IS NOT NULL THEN 1 ELSE 0 END), 0, max(daily_date), 0
FROM finished_games GROUP BY user_id;

UPDATE player_totals SET best_streak = (SELECT coalesce(max(n), 0) FROM (
    SELECT count(*) AS n, max(daily_date) AS last FROM (
        SELECT daily_date,
               daily_date::date - (row_number() OVER (ORDER BY daily_date))::int AS island
        FROM finished_games WHERE user_id = player_totals.user_id AND daily_date IS NOT NULL) AS d
    GROUP BY island) AS runs
), daily_run = coalesce((SELECT n FROM (
    SELECT count(*) AS n, max(daily_date) AS last FROM (
        SELECT daily_date,
               daily_date::date - (row_number() OVER (ORDER BY daily_date))::int AS island
        FROM finished_games WHERE user_id = player_totals.user_id AND daily_date IS NOT NULL) AS d
    GROUP BY island) AS runs ORDER BY last DESC LIMIT 1), 0) WHERE last_daily IS NOT NULL;

INSERT INTO guild_player_totals
SELECT guild_id, user_id, count(*), sum(won)
FROM finished_games WHERE guild_id IS NOT NULL GROUP BY guild_id, user_id;
