"""The SQL of the PostgreSQL store's operations, the SQLite backend's ported statement by
statement (``bot/store/sqlite/queries.py``, ``periods.py``): the same rows, orders and
version checks, in PostgreSQL's dialect.

Statements are written with ``:name`` parameters, as the SQLite ones are; ``bind`` turns
them into asyncpg's ``$n`` with the values in order. A parameter whose type the statement
alone does not tell is cast (``:daily_date::text``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from ..records import MIN_GAMES_FOR_RATE
from ..rows import CURRENT_COLUMNS, FINISHED_COLUMNS, SETTINGS_MASK

_NAME: Final = re.compile(r"(?<![:\w]):([a-z_]+)")


class Named:
    """A statement with ``:name`` parameters, as asyncpg's ``$n`` SQL and its names."""

    __slots__ = ("names", "sql")

    def __init__(self, sql: str) -> None:
        names: list[str] = []

        def number(match: re.Match[str]) -> str:
            if match[1] not in names:
                names.append(match[1])
            return f"${names.index(match[1]) + 1}"

        self.sql = _NAME.sub(number, sql)
        self.names = tuple(names)

    def args(self, params: Mapping[str, object]) -> tuple[object, ...]:
        return tuple(params[name] for name in self.names)


RATE_SQL: Final = f"(CASE WHEN games >= {MIN_GAMES_FOR_RATE} THEN wins * 1.0 / games END)"
ALL_TIME_ORDER: Final = f"wins DESC, {RATE_SQL} DESC, games DESC, user_id"
DAILY_ORDER: Final = "won DESC, score DESC, move_count, finished_at, user_id"

RUNS_SQL: Final = """
    SELECT count(*) AS n, max(daily_date) AS last FROM (
        SELECT daily_date,
               daily_date::date - (row_number() OVER (ORDER BY daily_date))::int AS island
        FROM finished_games
        WHERE user_id = {user} AND variant = {variant} AND daily_date IS NOT NULL) AS d
    GROUP BY island
"""
BEST_STREAK_SQL: Final = "(SELECT coalesce(max(n), 0) FROM (" + RUNS_SQL + ") AS runs)"
LAST_RUN_SQL: Final = "(SELECT n FROM (" + RUNS_SQL + ") AS runs ORDER BY last DESC LIMIT 1)"

CURRENT_SQL: Final = f"SELECT {CURRENT_COLUMNS} FROM current_games WHERE user_id = $1"
VERSION_SQL: Final = "SELECT version FROM current_games WHERE user_id = $1"
VERSIONS_SQL: Final = "SELECT user_id, version FROM current_games WHERE user_id = ANY($1::bigint[])"
FINISHED_SQL: Final = f"SELECT {FINISHED_COLUMNS} FROM finished_games ORDER BY id"
FINISHED_BY_USER_SQL: Final = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE user_id = $1 ORDER BY id"
)

# The row is locked by ON CONFLICT and the WHERE is checked on its latest version, so a
# new game replaces exactly the version it was asked to (or nothing: no row returned).
START: Final = Named("""
    INSERT INTO current_games AS c (user_id, guild_id, variant, deal_number, moves, status,
        version, undo_count, started_at, updated_at, daily_date, scored, assisted, hint_line)
    VALUES (:user_id, :guild_id, :variant, :deal_number, :moves, :status,
        1, 0, :started_at, :started_at, :daily_date, :scored, 0, :hint_line)
    ON CONFLICT (user_id) DO UPDATE SET
        guild_id = excluded.guild_id,
        variant = excluded.variant,
        deal_number = excluded.deal_number,
        moves = excluded.moves,
        status = excluded.status,
        version = c.version + 1,
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
    WHERE :replaces_version::int IS NULL OR c.version = :replaces_version::int
    RETURNING version
""")

# A concurrent writer of the row is waited for, then the WHERE is checked again on the
# row it left (READ COMMITTED's re-check): a stale version updates nothing. With
# :settings, only if the player's settings are still those the state was worked out with
# (``GameUpdate.settings``): a settings write and this one may race, but each is one
# statement, so this one reads the settings as they are before or after the other.
UPDATE: Final = Named(f"""
    UPDATE current_games
    SET version = :version, moves = :moves, status = :status, undo_count = :undo_count,
        redo_moves = :redo, updated_at = :updated_at, played_ms = :played_ms
    WHERE user_id = :user_id AND version = :expected_version
        AND (:settings::int IS NULL OR coalesce(
            (SELECT {SETTINGS_MASK} FROM user_settings WHERE user_id = :user_id),
            :default_settings::int) = :settings::int)
""")

INSERT_FINISHED: Final = Named("""
    INSERT INTO finished_games (user_id, guild_id, variant, deal_number, outcome, won,
        score, moves, undos, duration_s, started_at, finished_at, daily_date, move_count,
        assisted)
    VALUES (:user_id, :guild_id, :variant, :deal_number, :outcome, :won,
        :score, :moves, :undos, :duration_s, :started_at, :finished_at, :daily_date,
        :move_count, :assisted)
""")

_DAY: Final = ":daily_date::text"
NEXT_RUN_SQL: Final = (
    f"CASE WHEN t.last_daily = ({_DAY}::date - 1)::text THEN t.daily_run + 1 ELSE 1 END"
)
IN_ORDER_SQL: Final = f"{_DAY} IS NOT NULL AND (t.last_daily IS NULL OR {_DAY} > t.last_daily)"
_IS_DAILY: Final = f"(CASE WHEN {_DAY} IS NULL THEN 0 ELSE 1 END)"
# Totals are one row per player, changed in place (``games = t.games + 1``) under the
# row's lock, in the transaction that records the game: exact with any number of writers.
PLAYER_TOTALS: Final = Named(f"""
    INSERT INTO player_totals AS t (user_id, variant, games, wins, best_score, dailies,
        daily_wins, best_streak, last_daily, daily_run)
    VALUES (:user_id, :variant::text, 1, :won::int, :score, {_IS_DAILY},
        (CASE WHEN :won::int = 1 AND {_DAY} IS NOT NULL THEN 1 ELSE 0 END), {_IS_DAILY},
        {_DAY}, {_IS_DAILY})
    ON CONFLICT (user_id, variant) DO UPDATE SET
        games = t.games + 1,
        wins = t.wins + excluded.wins,
        best_score = greatest(t.best_score, excluded.best_score),
        dailies = t.dailies + excluded.dailies,
        daily_wins = t.daily_wins + excluded.daily_wins,
        best_streak = CASE
            WHEN {_DAY} IS NULL THEN t.best_streak
            WHEN {IN_ORDER_SQL} THEN greatest(t.best_streak, {NEXT_RUN_SQL})
            ELSE {BEST_STREAK_SQL.format(user=":user_id", variant=":variant::text")} END,
        daily_run = CASE
            WHEN {_DAY} IS NULL THEN t.daily_run
            WHEN {IN_ORDER_SQL} THEN {NEXT_RUN_SQL}
            ELSE {LAST_RUN_SQL.format(user=":user_id", variant=":variant::text")} END,
        last_daily = CASE
            WHEN {IN_ORDER_SQL} THEN {_DAY} ELSE t.last_daily END
""")

GUILD_TOTALS: Final = Named("""
    INSERT INTO guild_player_totals AS g (guild_id, variant, user_id, games, wins)
    SELECT :guild_id::bigint, :variant::text, :user_id::bigint, 1, :won::int
    WHERE :guild_id::bigint IS NOT NULL
    ON CONFLICT (guild_id, variant, user_id) DO UPDATE SET
        games = g.games + 1,
        wins = g.wins + excluded.wins
""")

START_DAILY: Final = Named("""
    INSERT INTO daily_attempts (user_id, variant, daily_date, guild_id, deal_number, started_at)
    VALUES (:user_id, :variant, :daily_date, :guild_id, :deal_number, :started_at)
    ON CONFLICT DO NOTHING
""")

SAVE_SETTINGS_SQL: Final = """
    INSERT INTO user_settings (
        user_id, symbols, auto_aces, winnable, watchable, reminders, picture, fair_hints
    ) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    ON CONFLICT (user_id) DO UPDATE SET
        symbols = excluded.symbols, auto_aces = excluded.auto_aces, winnable = excluded.winnable,
        watchable = excluded.watchable, reminders = excluded.reminders, picture = excluded.picture,
        fair_hints = excluded.fair_hints
"""
LOAD_SETTINGS_SQL: Final = (
    "SELECT symbols, auto_aces, winnable, watchable, reminders, picture, fair_hints "
    "FROM user_settings WHERE user_id = $1"
)
VERSION_AND_SETTINGS_SQL: Final = (
    "SELECT (SELECT version FROM current_games WHERE user_id = $1),"
    " s.symbols, s.auto_aces, s.winnable, s.watchable, s.reminders, s.picture, s.fair_hints"
    " FROM (SELECT 1) AS one LEFT JOIN user_settings AS s ON s.user_id = $1"
)

MARK_ASSISTED: Final = Named(
    "UPDATE current_games SET assisted = 1,"
    " hint_line = coalesce(:hint_line::text, hint_line),"
    " lost_back = CASE WHEN :lost_line::text IS NULL THEN lost_back"
    " ELSE :lost_back::int END,"
    " lost_line = coalesce(:lost_line::text, lost_line)"
    " WHERE user_id = :user_id AND version = :version"
)

DAILY_DEAL_SQL: Final = (
    "SELECT deal_number, line, par, rating FROM daily_deals WHERE day = $1 AND variant = $2"
)
# The first writer of a date wins: a second one waits for its commit, then inserts nothing.
SAVE_DAILY_DEAL_SQL: Final = (
    "INSERT INTO daily_deals (day, variant, deal_number, line, par, rating) "
    "VALUES ($1, $2, $3, $4, $5, $6) "
    "ON CONFLICT (day, variant) DO NOTHING"
)

RATE_DAILY_SQL: Final = (
    "UPDATE daily_deals SET rating = $1 WHERE day = $2 AND variant = $3 AND rating IS NULL"
)

HAS_DAILY_ATTEMPT_SQL: Final = (
    "SELECT 1 FROM daily_attempts WHERE user_id = $1 AND variant = $2 AND daily_date = $3"
)
DEAL_RECORD_SQL: Final = (
    "SELECT count(*), coalesce(sum(won), 0) FROM finished_games "
    "WHERE user_id = $1 AND variant = $2 AND deal_number = $3"
)
PLAYER_TOTALS_ROW_SQL: Final = (
    "SELECT user_id, games, wins, best_score, dailies, daily_wins, best_streak, "
    "last_daily, daily_run FROM player_totals WHERE user_id = $1 AND variant = $2"
)


def daily_board_sql(by_guild: bool) -> tuple[str, str]:
    """(count, page): parameters the game, the date, the server if ``by_guild``, LIMIT and
    OFFSET."""
    where = "variant = $1 AND daily_date = $2" + (" AND guild_id = $3" if by_guild else "")
    n = 4 if by_guild else 3
    count_sql = f"SELECT count(*) FROM finished_games WHERE {where}"
    rows_sql = (
        "SELECT user_id, guild_id, won, score, move_count, undos, duration_s, finished_at, "
        f"assisted FROM finished_games WHERE {where} ORDER BY {DAILY_ORDER} "
        f"LIMIT ${n} OFFSET ${n + 1}"
    )
    return count_sql, rows_sql


def all_time_board_sql(by_guild: bool) -> tuple[str, str]:
    """(count, page): parameters the server if ``by_guild``, the game, LIMIT and OFFSET."""
    if not by_guild:
        return "SELECT count(*) FROM player_totals WHERE variant = $1", (
            "SELECT user_id, games, wins, best_streak FROM player_totals WHERE variant = $1 "
            f"ORDER BY {ALL_TIME_ORDER} LIMIT $2 OFFSET $3"
        )
    streak = (
        "(SELECT best_streak FROM player_totals AS p WHERE p.user_id = guild_player_totals.user_id"
        " AND p.variant = guild_player_totals.variant)"
    )
    return "SELECT count(*) FROM guild_player_totals WHERE guild_id = $1 AND variant = $2", (
        f"SELECT user_id, games, wins, coalesce({streak}, 0) FROM guild_player_totals "
        f"WHERE guild_id = $1 AND variant = $2 ORDER BY {ALL_TIME_ORDER} LIMIT $3 OFFSET $4"
    )


FINISHED_BY_ID_SQL: Final = f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE id = $1"
RECENT_FINISHED_SQL: Final = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE user_id = $1 "
    "ORDER BY finished_at DESC, id DESC LIMIT $2"
)
DAILY_FINISHED_SQL: Final = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games "
    "WHERE user_id = $1 AND variant = $2 AND daily_date = $3"
)
BEST_DAILY_RUN_SQL: Final = (
    f"SELECT {FINISHED_COLUMNS} FROM finished_games WHERE variant = $1 AND daily_date = $2 "
    f"ORDER BY {DAILY_ORDER} LIMIT 1"
)

_PERIOD_RESULTS: Final = """
    SELECT user_id, count(*) AS dailies, sum(won) AS wins, sum(score) AS cards,
           sum(move_count) AS moves, max(assisted) AS assisted
    FROM finished_games
    WHERE variant = $1 AND daily_date IS NOT NULL AND daily_date >= $2 AND daily_date <= $3
      {guild}
    GROUP BY user_id
"""
PERIOD_ORDER: Final = "wins DESC, cards DESC, moves, dailies DESC, user_id"


def period_board_sql(by_guild: bool) -> tuple[str, str]:
    """(count, page): parameters the game, the first and last dates, the server if
    ``by_guild``, LIMIT and OFFSET."""
    results = _PERIOD_RESULTS.format(guild="AND guild_id = $4" if by_guild else "")
    n = 5 if by_guild else 4
    count_sql = f"SELECT count(*) FROM ({results}) AS p"
    rows_sql = (
        "SELECT user_id, dailies, wins, cards, moves, assisted "
        f"FROM ({results}) AS p ORDER BY {PERIOD_ORDER} LIMIT ${n} OFFSET ${n + 1}"
    )
    return count_sql, rows_sql


REMINDER_CANDIDATES_SQL: Final = """
    SELECT s.user_id, t.daily_run FROM user_settings AS s
    JOIN player_totals AS t ON t.user_id = s.user_id AND t.variant = 'vr'
    WHERE s.reminders = 1 AND t.last_daily = $1 AND t.daily_run >= 1
      AND NOT EXISTS (SELECT 1 FROM daily_attempts AS a
                      WHERE a.user_id = s.user_id AND a.variant = 'vr'
                        AND a.daily_date = $2)
    ORDER BY s.user_id
"""
