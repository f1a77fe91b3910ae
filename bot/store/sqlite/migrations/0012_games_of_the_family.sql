-- Version 12: every game of the family (Virginia Reel, Royal Parade, Three Up, Blue
-- Jacket, Big Parade) has its own daily, totals, streaks and leaderboards. The tables
-- keyed by player or date take the game's code (``variant``) into their keys; everything
-- recorded before this version was Virginia Reel ('vr').
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

CREATE TABLE daily_deals_v12 (
    day         TEXT    NOT NULL,   -- ISO date (UTC)
    variant     TEXT    NOT NULL DEFAULT 'vr',
    deal_number INTEGER NOT NULL,
    line        TEXT,               -- the winning line, ';'-separated; NULL: no proof
    par         INTEGER,            -- moves in the line; NULL: no proof
    PRIMARY KEY (day, variant)
) WITHOUT ROWID;

INSERT INTO daily_deals_v12 (day, deal_number, line, par, variant)
SELECT day, deal_number, line, par, 'vr' FROM daily_deals;

DROP TABLE daily_deals;

ALTER TABLE daily_deals_v12 RENAME TO daily_deals;

CREATE TABLE daily_attempts_v12 (   -- a user's scored daily of a game and date, once started
    user_id     INTEGER NOT NULL,
    variant     TEXT    NOT NULL DEFAULT 'vr',
    daily_date  TEXT    NOT NULL,
    guild_id    INTEGER,
    deal_number INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    PRIMARY KEY (user_id, variant, daily_date)
) WITHOUT ROWID;

INSERT INTO daily_attempts_v12 (user_id, daily_date, guild_id, deal_number, started_at, variant)
SELECT user_id, daily_date, guild_id, deal_number, started_at, 'vr' FROM daily_attempts;

DROP TABLE daily_attempts;

ALTER TABLE daily_attempts_v12 RENAME TO daily_attempts;

CREATE TABLE player_totals_v12 (    -- per user and game, over their finished games of it
    user_id     INTEGER NOT NULL,
    variant     TEXT    NOT NULL DEFAULT 'vr',
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    best_score  INTEGER NOT NULL,
    dailies     INTEGER NOT NULL,   -- scored dailies finished
    daily_wins  INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    last_daily  TEXT,               -- the latest of their scored dailies' dates
    daily_run   INTEGER NOT NULL,   -- consecutive dates ending at last_daily
    PRIMARY KEY (user_id, variant)
) WITHOUT ROWID;

INSERT INTO player_totals_v12 (user_id, games, wins, best_score, dailies, daily_wins,
    best_streak, last_daily, daily_run, variant)
SELECT user_id, games, wins, best_score, dailies, daily_wins, best_streak, last_daily,
    daily_run, 'vr' FROM player_totals;

DROP TABLE player_totals;

ALTER TABLE player_totals_v12 RENAME TO player_totals;

-- The all-time rankings of a game (the expression as in version 2).
CREATE INDEX player_totals_rank ON player_totals (variant, wins DESC, (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);

CREATE TABLE guild_player_totals_v12 (  -- per server, game and user
    guild_id INTEGER NOT NULL,
    variant  TEXT    NOT NULL DEFAULT 'vr',
    user_id  INTEGER NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, variant, user_id)
) WITHOUT ROWID;

INSERT INTO guild_player_totals_v12 (guild_id, user_id, games, wins, variant)
SELECT guild_id, user_id, games, wins, 'vr' FROM guild_player_totals;

DROP TABLE guild_player_totals;

ALTER TABLE guild_player_totals_v12 RENAME TO guild_player_totals;

CREATE INDEX guild_player_totals_rank ON guild_player_totals (guild_id, variant, wins DESC, (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);

-- One scored daily per user, game and date; the daily rankings of a game.
DROP INDEX finished_games_daily_by_user;

CREATE UNIQUE INDEX finished_games_daily_by_user ON finished_games (user_id, variant, daily_date) WHERE daily_date IS NOT NULL;

DROP INDEX finished_games_daily_rank;

CREATE INDEX finished_games_daily_rank ON finished_games (variant, daily_date, won DESC, score DESC, move_count, finished_at, user_id) WHERE daily_date IS NOT NULL;

DROP INDEX finished_games_daily_guild_rank;

CREATE INDEX finished_games_daily_guild_rank ON finished_games (variant, daily_date, guild_id, won DESC, score DESC, move_count, finished_at, user_id) WHERE daily_date IS NOT NULL;
