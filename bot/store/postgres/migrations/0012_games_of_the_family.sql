-- Version 12 (PostgreSQL): every game of the family has its own daily, totals, streaks
-- and leaderboards; the tables keyed by player or date take the game's code (variant)
-- into their keys. Everything recorded before was Virginia Reel ('vr'). Means what
-- SQLite's 0012 means. Shipped: never edit this file.

ALTER TABLE daily_deals ADD COLUMN variant TEXT NOT NULL DEFAULT 'vr';
ALTER TABLE daily_deals DROP CONSTRAINT daily_deals_pkey;
ALTER TABLE daily_deals ADD PRIMARY KEY (day, variant);

ALTER TABLE daily_attempts ADD COLUMN variant TEXT NOT NULL DEFAULT 'vr';
ALTER TABLE daily_attempts DROP CONSTRAINT daily_attempts_pkey;
ALTER TABLE daily_attempts ADD PRIMARY KEY (user_id, variant, daily_date);

ALTER TABLE player_totals ADD COLUMN variant TEXT NOT NULL DEFAULT 'vr';
ALTER TABLE player_totals DROP CONSTRAINT player_totals_pkey;
ALTER TABLE player_totals ADD PRIMARY KEY (user_id, variant);
DROP INDEX player_totals_rank;
CREATE INDEX player_totals_rank ON player_totals (variant, wins DESC, (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);

ALTER TABLE guild_player_totals ADD COLUMN variant TEXT NOT NULL DEFAULT 'vr';
ALTER TABLE guild_player_totals DROP CONSTRAINT guild_player_totals_pkey;
ALTER TABLE guild_player_totals ADD PRIMARY KEY (guild_id, variant, user_id);
DROP INDEX guild_player_totals_rank;
CREATE INDEX guild_player_totals_rank ON guild_player_totals (guild_id, variant, wins DESC, (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);

DROP INDEX finished_games_daily_by_user;
CREATE UNIQUE INDEX finished_games_daily_by_user ON finished_games (user_id, variant, daily_date) WHERE daily_date IS NOT NULL;
DROP INDEX finished_games_daily_rank;
CREATE INDEX finished_games_daily_rank ON finished_games (variant, daily_date, won DESC, score DESC, move_count, finished_at, user_id) WHERE daily_date IS NOT NULL;
DROP INDEX finished_games_daily_guild_rank;
CREATE INDEX finished_games_daily_guild_rank ON finished_games (variant, daily_date, guild_id, won DESC, score DESC, move_count, finished_at, user_id) WHERE daily_date IS NOT NULL;
