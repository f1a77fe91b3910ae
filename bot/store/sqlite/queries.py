"""The SQL of the SQLite store's operations (the schema itself is in the migrations)."""

from __future__ import annotations

from typing import Final

from ..records import MIN_GAMES_FOR_RATE
from ..rows import CURRENT_COLUMNS, FINISHED_COLUMNS, SETTINGS_MASK

# The all-time ranking key after wins: the win rate, NULL (ranked after any
# rate) below MIN_GAMES_FOR_RATE games. Written identically in the indexes
# (migration 2) and the queries, so SQLite reads the ranking off the index.
# Changing the minimum needs a migration that recreates the two indexes.
RATE_SQL: Final = f"(CASE WHEN games >= {MIN_GAMES_FOR_RATE} THEN wins * 1.0 / games END)"
ALL_TIME_ORDER: Final = f"wins DESC, {RATE_SQL} DESC, games DESC, user_id"
DAILY_ORDER: Final = "won DESC, score DESC, move_count, finished_at, user_id"

# The runs of consecutive dates among the scored dailies of the game {variant} of the
# user named by {user}: one row per run, its length n and last date (gaps and islands: a
# date minus its rank is constant along a run).
RUNS_SQL: Final = """
    SELECT count(*) AS n, max(daily_date) AS last FROM (
        SELECT daily_date,
               julianday(daily_date) - row_number() OVER (ORDER BY daily_date) AS island
        FROM finished_games
        WHERE user_id = {user} AND variant = {variant} AND daily_date IS NOT NULL)
    GROUP BY island
"""
# The best streak, and the run ending at the latest date, recomputed in full.
BEST_STREAK_SQL: Final = "(SELECT coalesce(max(n), 0) FROM (" + RUNS_SQL + "))"
LAST_RUN_SQL: Final = "(SELECT n FROM (" + RUNS_SQL + ") ORDER BY last DESC LIMIT 1)"

CURRENT_SQL: Final = f"SELECT {CURRENT_COLUMNS} FROM current_games WHERE user_id = ?"
VERSION_SQL: Final = "SELECT version FROM current_games WHERE user_id = ?"
VERSIONS_SQL: Final = (  # the players as a JSON array
    "SELECT user_id, version FROM current_games WHERE user_id IN (SELECT value FROM json_each(?))"
)
VERSION_AND_SETTINGS_SQL: Final = (  # one row always, NULLs where nothing is stored
    "SELECT (SELECT version FROM current_games WHERE user_id = :user_id),"
    " s.symbols, s.auto_aces, s.winnable, s.watchable, s.reminders, s.picture, s.fair_hints"
    " FROM (SELECT 1) AS one LEFT JOIN user_settings AS s ON s.user_id = :user_id"
)
FINISHED_SQL: Final = f"SELECT {FINISHED_COLUMNS} FROM finished_games ORDER BY id"
FINISHED_BY_USER_SQL: Final = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE user_id = ? ORDER BY id"
)

START_SQL: Final = """
    INSERT INTO current_games (user_id, guild_id, variant, deal_number, moves, status,
        version, undo_count, started_at, updated_at, daily_date, scored, assisted, hint_line)
    VALUES (:user_id, :guild_id, :variant, :deal_number, :moves, :status,
        1, 0, :started_at, :started_at, :daily_date, :scored, 0, :hint_line)
    ON CONFLICT (user_id) DO UPDATE SET
        guild_id = excluded.guild_id,
        variant = excluded.variant,
        deal_number = excluded.deal_number,
        moves = excluded.moves,
        status = excluded.status,
        version = CASE WHEN typeof(current_games.version) = 'integer'
                       THEN current_games.version + 1 ELSE 1 END,
        undo_count = 0,
        started_at = excluded.started_at,
        updated_at = excluded.updated_at,
        daily_date = excluded.daily_date,
        scored = excluded.scored,
        assisted = 0,
        hint_line = excluded.hint_line,
        lost_line = NULL,
        lost_back = NULL,
        redo_moves = '',
        played_ms = 0
    WHERE :replaces_version IS NULL OR current_games.version = :replaces_version
    RETURNING version
"""

# With :settings, only if the player's settings are still those the state was worked
# out with (``GameUpdate.settings``).
UPDATE_SQL: Final = f"""
    UPDATE current_games
    SET version = :version, moves = :moves, status = :status, undo_count = :undo_count,
        redo_moves = :redo, updated_at = :updated_at, played_ms = :played_ms
    WHERE user_id = :user_id AND version = :expected_version
        AND (:settings IS NULL OR coalesce(
            (SELECT {SETTINGS_MASK} FROM user_settings WHERE user_id = :user_id),
            :default_settings) = :settings)
"""

INSERT_FINISHED_SQL: Final = """
    INSERT INTO finished_games (user_id, guild_id, variant, deal_number, outcome, won,
        score, moves, undos, duration_s, started_at, finished_at, daily_date, move_count,
        assisted)
    VALUES (:user_id, :guild_id, :variant, :deal_number, :outcome, :won,
        :score, :moves, :undos, :duration_s, :started_at, :finished_at, :daily_date,
        :move_count, :assisted)
"""

# A scored daily normally comes after the user's previous one (a user has one
# current game, so the daily of a date is recorded before the next date's can
# start): then the streak grows by one or restarts at 1, in O(1). A date at or
# before last_daily (a clock set back) recomputes both figures in full.
NEXT_RUN_SQL: Final = (
    "CASE WHEN last_daily = date(:daily_date, '-1 day') THEN daily_run + 1 ELSE 1 END"
)
IN_ORDER_SQL: Final = ":daily_date IS NOT NULL AND (last_daily IS NULL OR :daily_date > last_daily)"
PLAYER_TOTALS_SQL: Final = f"""
    INSERT INTO player_totals (user_id, variant, games, wins, best_score, dailies, daily_wins,
        best_streak, last_daily, daily_run)
    VALUES (:user_id, :variant, 1, :won, :score, :daily_date IS NOT NULL,
        :won AND :daily_date IS NOT NULL, :daily_date IS NOT NULL, :daily_date,
        :daily_date IS NOT NULL)
    ON CONFLICT (user_id, variant) DO UPDATE SET
        games = games + 1,
        wins = wins + excluded.wins,
        best_score = max(best_score, excluded.best_score),
        dailies = dailies + excluded.dailies,
        daily_wins = daily_wins + excluded.daily_wins,
        best_streak = CASE
            WHEN :daily_date IS NULL THEN best_streak
            WHEN {IN_ORDER_SQL} THEN max(best_streak, {NEXT_RUN_SQL})
            ELSE {BEST_STREAK_SQL.format(user=":user_id", variant=":variant")} END,
        daily_run = CASE
            WHEN :daily_date IS NULL THEN daily_run
            WHEN {IN_ORDER_SQL} THEN {NEXT_RUN_SQL}
            ELSE {LAST_RUN_SQL.format(user=":user_id", variant=":variant")} END,
        last_daily = CASE
            WHEN {IN_ORDER_SQL} THEN :daily_date ELSE last_daily END
"""

GUILD_TOTALS_SQL: Final = """
    INSERT INTO guild_player_totals (guild_id, variant, user_id, games, wins)
    SELECT :guild_id, :variant, :user_id, 1, :won WHERE :guild_id IS NOT NULL
    ON CONFLICT (guild_id, variant, user_id) DO UPDATE SET
        games = games + 1,
        wins = wins + excluded.wins
"""

START_DAILY_SQL: Final = """
    INSERT INTO daily_attempts (user_id, variant, daily_date, guild_id, deal_number, started_at)
    VALUES (:user_id, :variant, :daily_date, :guild_id, :deal_number, :started_at)
    ON CONFLICT DO NOTHING
"""


SAVE_SETTINGS_SQL: Final = """
    INSERT INTO user_settings (
        user_id, symbols, auto_aces, winnable, watchable, reminders, picture, fair_hints
    ) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (user_id) DO UPDATE SET
        symbols = excluded.symbols, auto_aces = excluded.auto_aces, winnable = excluded.winnable,
        watchable = excluded.watchable, reminders = excluded.reminders, picture = excluded.picture,
        fair_hints = excluded.fair_hints
"""


LOAD_SETTINGS_SQL: Final = (
    "SELECT symbols, auto_aces, winnable, watchable, reminders, picture, fair_hints "
    "FROM user_settings WHERE user_id = ?"
)

MARK_ASSISTED_SQL: Final = (
    "UPDATE current_games SET assisted = 1,"
    " hint_line = coalesce(:hint_line, hint_line),"
    " lost_back = CASE WHEN :lost_line IS NULL THEN lost_back"
    " ELSE :lost_back END,"
    " lost_line = coalesce(:lost_line, lost_line)"
    " WHERE user_id = :user_id AND version = :version"
)

DAILY_DEAL_SQL: Final = (
    "SELECT deal_number, line, par, rating FROM daily_deals WHERE day = ? AND variant = ?"
)
SAVE_DAILY_DEAL_SQL: Final = (
    "INSERT INTO daily_deals (day, variant, deal_number, line, par, rating) "
    "VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (day, variant) DO NOTHING"
)

RATE_DAILY_SQL: Final = (
    "UPDATE daily_deals SET rating = ? WHERE day = ? AND variant = ? AND rating IS NULL"
)

HAS_DAILY_ATTEMPT_SQL: Final = (
    "SELECT 1 FROM daily_attempts WHERE user_id = ? AND variant = ? AND daily_date = ?"
)
# (read along the index by user; a player's games are a few thousand at most)
DEAL_RECORD_SQL: Final = (
    "SELECT count(*), coalesce(sum(won), 0) FROM finished_games "
    "WHERE user_id = ? AND variant = ? AND deal_number = ?"
)
PLAYER_TOTALS_ROW_SQL: Final = (
    "SELECT user_id, games, wins, best_score, dailies, daily_wins, best_streak, "
    "last_daily, daily_run FROM player_totals WHERE user_id = ? AND variant = ?"
)


def daily_board_sql(by_guild: bool) -> tuple[str, str]:
    """(count, page) of a daily leaderboard; parameters the game, the date, the server if
    ``by_guild``, and for the page LIMIT and OFFSET. Read in order off
    ``finished_games_daily_(guild_)rank``."""
    where = "variant = ? AND daily_date = ?" + (" AND guild_id = ?" if by_guild else "")
    count_sql = f"SELECT count(*) FROM finished_games WHERE {where}"
    rows_sql = (
        "SELECT user_id, guild_id, won, score, move_count, undos, duration_s, finished_at, "
        "assisted "
        f"FROM finished_games WHERE {where} ORDER BY {DAILY_ORDER} LIMIT ? OFFSET ?"
    )
    return count_sql, rows_sql


def all_time_board_sql(by_guild: bool) -> tuple[str, str]:
    """(count, page) of a game's all-time leaderboard; parameters the server if ``by_guild``,
    the game,
    and for the page LIMIT and OFFSET. Read in order off ``player_totals_rank`` /
    ``guild_player_totals_rank``, the server rows' best streak by primary key."""
    if not by_guild:
        return "SELECT count(*) FROM player_totals WHERE variant = ?", (
            "SELECT user_id, games, wins, best_streak FROM player_totals WHERE variant = ? "
            f"ORDER BY {ALL_TIME_ORDER} LIMIT ? OFFSET ?"
        )
    streak = (
        "(SELECT best_streak FROM player_totals AS p WHERE p.user_id = guild_player_totals.user_id"
        " AND p.variant = guild_player_totals.variant)"
    )
    return "SELECT count(*) FROM guild_player_totals WHERE guild_id = ? AND variant = ?", (
        f"SELECT user_id, games, wins, coalesce({streak}, 0) FROM guild_player_totals "
        f"WHERE guild_id = ? AND variant = ? ORDER BY {ALL_TIME_ORDER} LIMIT ? OFFSET ?"
    )


# Replays and the daily's ghost (issue 33): one recorded game by id, a player's last ones
# (along finished_games_by_user), a player's scored daily of a date, the day's best.
FINISHED_BY_ID_SQL: Final = f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE id = ?"
RECENT_FINISHED_SQL: Final = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE user_id = ? "
    "ORDER BY finished_at DESC, id DESC LIMIT ?"
)
DAILY_FINISHED_SQL: Final = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games "
    "WHERE user_id = ? AND variant = ? AND daily_date = ?"
)
BEST_DAILY_RUN_SQL: Final = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE variant = ? AND daily_date = ? "
    f"ORDER BY {DAILY_ORDER} LIMIT 1"
)
