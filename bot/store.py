"""The SQLite store: the only module that speaks SQL.

One aiosqlite connection (one worker thread) on a file, in WAL mode with
``synchronous=FULL``: a transaction is on disk (the WAL fsynced) before the
call that wrote it returns, so an acknowledged move survives a SIGKILL of the
process and a power cut alike. ``docs/storage.md`` explains the schema, the
migrations, the durability choice and the concurrency design.

Every operation is one synchronous function run on the connection's worker
thread, as a single item of its queue: a read, a one-statement write (a
move: autocommit, its own transaction), or a whole ``BEGIN IMMEDIATE ...
COMMIT`` transaction (a new game that records the old one, a finished game).
So nothing ever runs inside someone else's transaction, a transaction costs
one trip to the thread like any statement, and once queued an operation runs
to its end even if the caller is cancelled.

The schema is created and upgraded by the numbered ``MIGRATIONS``
(``PRAGMA user_version`` holds the number applied); a file written by a newer
program is refused with ``SchemaTooNewError``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Final, Literal, TypeVar

import aiosqlite

from engine import line_length

from .daily import DailyDeal

Outcome = Literal["won", "lost", "abandoned", "resigned"]
OUTCOMES: Final = ("won", "lost", "abandoned", "resigned")
GameStatus = Literal["playing", "stuck", "won", "resigned"]
GAME_STATUSES: Final = ("playing", "stuck", "won", "resigned")

BUSY_TIMEOUT_MS: Final = 5000
PRAGMAS: Final = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
)

_T = TypeVar("_T")


class StoreError(Exception):
    """The database can't be used as it is. The store raises only these: a driver's
    own error reaches a caller as a ``StoreUnavailableError`` (its ``__cause__``)."""


class StoreUnavailableError(StoreError):
    """The database could not be read or written just now (locked, disk full, I/O
    error, read-only, not a database): nothing was applied."""


class SchemaTooNewError(StoreError):
    """The file was written by a newer program, with migrations this one doesn't know."""


class CorruptRowError(StoreError):
    """A stored row whose values have the wrong types (written by hand or by a bug)."""


class _Refused(Exception):
    """Raised inside a transaction to roll it back when a version check fails."""


# ---------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class CurrentGame:
    """A user's current game as stored: the deal and the moves played since."""

    user_id: int
    guild_id: int | None
    variant: str
    deal_number: int
    moves: str  # the move list, see bot.service (engine notation joined by ';')
    status: str  # one of GAME_STATUSES for a sound row
    version: int
    undo_count: int
    started_at: datetime
    updated_at: datetime
    daily_date: date | None = None  # the daily challenge this game is (None: not a daily)
    scored: bool = True  # False for an unscored replay of a daily already played
    assisted: bool = False  # a hint was asked for in this game
    # The winning line from the deal that the hints continue (the solver's proof of
    # the deal, or the moves and line of the last hint that found one), in the
    # notation of ``moves`` without marks; None when no line is known.
    hint_line: str | None = None
    # A hint's proof that the game is lost: the moves played when the solver proved
    # it (same notation; "" for the deal itself), and the move count from which it
    # could still be won (None: none found); lost_line None when there is no proof.
    lost_line: str | None = None
    lost_back: int | None = None


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game over and recorded, credited to the server where it was started."""

    user_id: int
    guild_id: int | None
    variant: str
    deal_number: int
    outcome: Outcome
    score: int
    moves: str
    undos: int
    duration_s: int
    started_at: datetime
    finished_at: datetime
    daily_date: date | None = None  # set only for a user's scored daily of that date
    id: int | None = None  # given by the database
    assisted: bool = False  # a hint was asked for in this game

    @property
    def won(self) -> bool:
        return self.outcome == "won"

    @property
    def move_count(self) -> int:
        """Moves played (automatic ones included): the entries of the move list."""
        return line_length(self.moves)


@dataclass(frozen=True, slots=True)
class GameUpdate:
    """A new state of a current game, written only if the row is still at ``expected_version``."""

    user_id: int
    expected_version: int
    version: int
    moves: str
    status: GameStatus
    undo_count: int
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class DailyResult:
    """A row of a daily leaderboard: one user's scored daily of the date."""

    user_id: int
    guild_id: int | None
    won: bool
    score: int
    move_count: int
    undos: int
    duration_s: int
    finished_at: datetime
    assisted: bool = False  # the player asked for a hint


@dataclass(frozen=True, slots=True)
class Totals:
    """A row of an all-time leaderboard: a user's totals (over one server, or everywhere)."""

    user_id: int
    games: int
    wins: int
    best_streak: int  # the user's best daily streak, everywhere


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """A user's figures over all their finished games, kept with every result."""

    user_id: int
    games: int
    wins: int
    best_score: int
    dailies: int  # scored dailies finished
    daily_wins: int
    best_streak: int
    last_daily: date | None  # the latest date of a scored daily
    daily_run: int  # consecutive dates of scored dailies ending at last_daily

    def current_streak(self, today: date) -> int:
        """The streak still alive on ``today``: the run ending today or yesterday, else 0."""
        if self.last_daily is None or (today - self.last_daily).days > 1:
            return 0
        return self.daily_run


@dataclass(frozen=True, slots=True)
class UserSettings:
    symbols: bool
    auto_aces: bool
    winnable: bool = False  # v5: a random new game is a deal the solver proved winnable


# ---------------------------------------------------------------------- migrations

Migration = Callable[[sqlite3.Connection], None]


def _v1_initial_schema(conn: sqlite3.Connection) -> None:
    """v1: current games, finished games, user settings."""
    conn.execute(
        """
        CREATE TABLE current_games (
            user_id     INTEGER PRIMARY KEY,
            guild_id    INTEGER,
            variant     TEXT    NOT NULL,
            deal_number INTEGER NOT NULL,
            moves       TEXT    NOT NULL DEFAULT '',
            status      TEXT    NOT NULL,
            version     INTEGER NOT NULL,
            undo_count  INTEGER NOT NULL DEFAULT 0,
            started_at  TEXT    NOT NULL,
            updated_at  TEXT    NOT NULL
        )
        """
    )
    conn.execute(
        """
        CREATE TABLE finished_games (
            id          INTEGER PRIMARY KEY,
            user_id     INTEGER NOT NULL,
            guild_id    INTEGER,
            variant     TEXT    NOT NULL,
            deal_number INTEGER NOT NULL,
            outcome     TEXT    NOT NULL
                        CHECK (outcome IN ('won', 'lost', 'abandoned', 'resigned')),
            won         INTEGER NOT NULL CHECK (won IN (0, 1)),
            score       INTEGER NOT NULL,
            moves       TEXT    NOT NULL,
            undos       INTEGER NOT NULL,
            duration_s  INTEGER NOT NULL,
            started_at  TEXT    NOT NULL,
            finished_at TEXT    NOT NULL,
            daily_date  TEXT
        )
        """
    )
    conn.execute("CREATE INDEX finished_games_by_user ON finished_games (user_id, finished_at)")
    conn.execute("CREATE INDEX finished_games_by_guild ON finished_games (guild_id, finished_at)")
    conn.execute(
        """
        CREATE TABLE user_settings (
            user_id   INTEGER PRIMARY KEY,
            symbols   INTEGER NOT NULL DEFAULT 1 CHECK (symbols IN (0, 1)),
            auto_aces INTEGER NOT NULL DEFAULT 0 CHECK (auto_aces IN (0, 1))
        )
        """
    )


# The all-time ranking key after wins: the win rate, NULL (ranked after any
# rate) below MIN_GAMES_FOR_RATE games. Written identically in the indexes
# (migration 2) and the queries, so SQLite reads the ranking off the index.
# Changing the minimum needs a migration that recreates the two indexes.
MIN_GAMES_FOR_RATE: Final = 5
_RATE_SQL: Final = f"(CASE WHEN games >= {MIN_GAMES_FOR_RATE} THEN wins * 1.0 / games END)"
_ALL_TIME_ORDER: Final = f"wins DESC, {_RATE_SQL} DESC, games DESC, user_id"
_DAILY_ORDER: Final = "won DESC, score DESC, move_count, finished_at, user_id"

# The runs of consecutive dates among the scored dailies of the user named by
# {user}: one row per run, its length n and last date (gaps and islands: a
# date minus its rank is constant along a run).
_RUNS_SQL: Final = """
    SELECT count(*) AS n, max(daily_date) AS last FROM (
        SELECT daily_date,
               julianday(daily_date) - row_number() OVER (ORDER BY daily_date) AS island
        FROM finished_games WHERE user_id = {user} AND daily_date IS NOT NULL)
    GROUP BY island
"""
# The best streak, and the run ending at the latest date, recomputed in full.
_BEST_STREAK_SQL: Final = "(SELECT coalesce(max(n), 0) FROM (" + _RUNS_SQL + "))"
_LAST_RUN_SQL: Final = "(SELECT n FROM (" + _RUNS_SQL + ") ORDER BY last DESC LIMIT 1)"


def _v2_daily_and_leaderboards(conn: sqlite3.Connection) -> None:
    """v2: the daily challenge (attempts, dates) and the leaderboards' totals and indexes."""
    conn.execute("ALTER TABLE current_games ADD COLUMN daily_date TEXT")
    conn.execute(
        "ALTER TABLE current_games ADD COLUMN scored INTEGER NOT NULL DEFAULT 1 "
        "CHECK (scored IN (0, 1))"
    )
    conn.execute("ALTER TABLE finished_games ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0")
    conn.execute(
        "UPDATE finished_games SET move_count = CASE WHEN moves = '' THEN 0 "
        "ELSE length(moves) - length(replace(moves, ';', '')) + 1 END"
    )
    # At most one scored daily per user and date: keep the first if v1 had more.
    conn.execute(
        """
        UPDATE finished_games SET daily_date = NULL
        WHERE daily_date IS NOT NULL AND id NOT IN (
            SELECT min(id) FROM finished_games WHERE daily_date IS NOT NULL
            GROUP BY user_id, daily_date)
        """
    )
    conn.execute(
        "CREATE UNIQUE INDEX finished_games_daily_by_user "
        "ON finished_games (user_id, daily_date) WHERE daily_date IS NOT NULL"
    )
    conn.execute(
        f"CREATE INDEX finished_games_daily_rank ON finished_games (daily_date, {_DAILY_ORDER}) "
        "WHERE daily_date IS NOT NULL"
    )
    conn.execute(
        "CREATE INDEX finished_games_daily_guild_rank "
        f"ON finished_games (daily_date, guild_id, {_DAILY_ORDER}) WHERE daily_date IS NOT NULL"
    )
    conn.execute(
        """
        CREATE TABLE daily_attempts (       -- a user's scored daily of a date, once started
            user_id     INTEGER NOT NULL,
            daily_date  TEXT    NOT NULL,
            guild_id    INTEGER,
            deal_number INTEGER NOT NULL,
            started_at  TEXT    NOT NULL,
            PRIMARY KEY (user_id, daily_date)
        ) WITHOUT ROWID
        """
    )
    conn.execute(
        "INSERT INTO daily_attempts SELECT user_id, daily_date, guild_id, deal_number, started_at "
        "FROM finished_games WHERE daily_date IS NOT NULL"
    )
    conn.execute(
        """
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
        )
        """
    )
    conn.execute(f"CREATE INDEX player_totals_rank ON player_totals ({_ALL_TIME_ORDER})")
    conn.execute(
        """
        CREATE TABLE guild_player_totals (  -- per server and user, games credited to the server
            guild_id INTEGER NOT NULL,
            user_id  INTEGER NOT NULL,
            games    INTEGER NOT NULL,
            wins     INTEGER NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        ) WITHOUT ROWID
        """
    )
    conn.execute(
        "CREATE INDEX guild_player_totals_rank "
        f"ON guild_player_totals (guild_id, {_ALL_TIME_ORDER})"
    )
    conn.execute(
        """
        INSERT INTO player_totals
        SELECT user_id, count(*), sum(won), max(score), count(daily_date),
               sum(won AND daily_date IS NOT NULL), 0, max(daily_date), 0
        FROM finished_games GROUP BY user_id
        """
    )
    user = "player_totals.user_id"
    conn.execute(
        f"UPDATE player_totals SET best_streak = {_BEST_STREAK_SQL.format(user=user)}, "
        f"daily_run = coalesce({_LAST_RUN_SQL.format(user=user)}, 0) "
        "WHERE last_daily IS NOT NULL"
    )
    conn.execute(
        """
        INSERT INTO guild_player_totals
        SELECT guild_id, user_id, count(*), sum(won)
        FROM finished_games WHERE guild_id IS NOT NULL GROUP BY guild_id, user_id
        """
    )


def _v3_assisted(conn: sqlite3.Connection) -> None:
    """v3: hints. A game in which the player asked for a hint is marked assisted."""
    for table in ("current_games", "finished_games"):
        conn.execute(
            f"ALTER TABLE {table} ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0 "
            "CHECK (assisted IN (0, 1))"
        )


def _v4_daily_deals(conn: sqlite3.Connection) -> None:
    """v4: the deal chosen for each date's daily, with the solver's winning line."""
    conn.execute(
        """
        CREATE TABLE daily_deals (
            day         TEXT PRIMARY KEY,   -- ISO date (UTC)
            deal_number INTEGER NOT NULL,
            line        TEXT,               -- the winning line, ';'-separated; NULL: no proof
            par         INTEGER             -- moves in the line; NULL: no proof
        ) WITHOUT ROWID
        """
    )


def _v5_winnable_setting(conn: sqlite3.Connection) -> None:
    """v5: the setting for random new games proven winnable (off for everyone before)."""
    conn.execute(
        "ALTER TABLE user_settings ADD COLUMN winnable INTEGER NOT NULL DEFAULT 0"
        " CHECK (winnable IN (0, 1))"
    )


def _v6_hint_line(conn: sqlite3.Connection) -> None:
    """v6: the winning line a current game's hints continue, kept across a restart."""
    conn.execute(
        "ALTER TABLE current_games ADD COLUMN hint_line TEXT"  # ';'-separated; NULL: none
    )


def _v7_lost_proof(conn: sqlite3.Connection) -> None:
    """v7: a hint's proof that a current game is lost, kept across a restart."""
    conn.execute("ALTER TABLE current_games ADD COLUMN lost_line TEXT")  # NULL: no proof
    conn.execute("ALTER TABLE current_games ADD COLUMN lost_back INTEGER")


# Migration n (1-based) takes a database from user_version n - 1 to n. Append
# new ones; never edit or reorder one that has shipped.
MIGRATIONS: Final[Sequence[Migration]] = (
    _v1_initial_schema,
    _v2_daily_and_leaderboards,
    _v3_assisted,
    _v4_daily_deals,
    _v5_winnable_setting,
    _v6_hint_line,
    _v7_lost_proof,
)
SCHEMA_VERSION: Final = len(MIGRATIONS)


# ---------------------------------------------------------------------- conversions


def _timestamp(value: datetime) -> str:
    return value.isoformat()


def _parse_timestamp(value: object, column: str) -> datetime:
    if not isinstance(value, str):
        raise CorruptRowError(f"{column} is {value!r}, not a timestamp")
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise CorruptRowError(f"{column} is {value!r}, not a timestamp") from None


def _parse_date(value: object, column: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(_text(value, column))
    except ValueError:
        raise CorruptRowError(f"{column} is {value!r}, not a date") from None


def _int(value: object, column: str) -> int:
    if not isinstance(value, int):
        raise CorruptRowError(f"{column} is {value!r}, not a whole number")
    return value


def _opt_int(value: object, column: str) -> int | None:
    return None if value is None else _int(value, column)


def _text(value: object, column: str) -> str:
    if not isinstance(value, str):
        raise CorruptRowError(f"{column} is {value!r}, not text")
    return value


def _current_from_row(row: sqlite3.Row | tuple[Any, ...]) -> CurrentGame:
    user_id, guild_id, variant, deal_number, moves, status, version, undo_count = row[:8]
    started_at, updated_at, daily_date, scored, assisted, hint_line, lost_line, lost_back = row[8:]
    if scored not in (0, 1):
        raise CorruptRowError(f"scored is {scored!r}, not 0 or 1")
    if assisted not in (0, 1):
        raise CorruptRowError(f"assisted is {assisted!r}, not 0 or 1")
    return CurrentGame(
        user_id=_int(user_id, "user_id"),
        guild_id=_opt_int(guild_id, "guild_id"),
        variant=_text(variant, "variant"),
        deal_number=_int(deal_number, "deal_number"),
        moves=_text(moves, "moves"),
        status=_text(status, "status"),
        version=_int(version, "version"),
        undo_count=_int(undo_count, "undo_count"),
        started_at=_parse_timestamp(started_at, "started_at"),
        updated_at=_parse_timestamp(updated_at, "updated_at"),
        daily_date=_parse_date(daily_date, "daily_date"),
        scored=bool(scored),
        assisted=bool(assisted),
        hint_line=None if hint_line is None else _text(hint_line, "hint_line"),
        lost_line=None if lost_line is None else _text(lost_line, "lost_line"),
        lost_back=_opt_int(lost_back, "lost_back"),
    )


_DAILY_DEAL_SQL: Final = "SELECT deal_number, line, par FROM daily_deals WHERE day = ?"


def _daily_deal_from_row(day: date, row: sqlite3.Row | tuple[Any, ...]) -> DailyDeal:
    deal_number, line, par = row
    return DailyDeal(
        day=day,
        deal_number=_int(deal_number, "deal_number"),
        line=None if line is None else _text(line, "line"),
        par=_opt_int(par, "par"),
    )


def _finished_from_row(row: sqlite3.Row | tuple[Any, ...]) -> FinishedGame:
    id_, user_id, guild_id, variant, deal_number, outcome, score, moves = row[:8]
    undos, duration_s, started_at, finished_at, daily_date, assisted = row[8:]
    if outcome not in OUTCOMES:
        raise CorruptRowError(f"outcome is {outcome!r}")
    return FinishedGame(
        id=_int(id_, "id"),
        user_id=_int(user_id, "user_id"),
        guild_id=_opt_int(guild_id, "guild_id"),
        variant=_text(variant, "variant"),
        deal_number=_int(deal_number, "deal_number"),
        outcome=outcome,
        score=_int(score, "score"),
        moves=_text(moves, "moves"),
        undos=_int(undos, "undos"),
        duration_s=_int(duration_s, "duration_s"),
        started_at=_parse_timestamp(started_at, "started_at"),
        finished_at=_parse_timestamp(finished_at, "finished_at"),
        daily_date=_parse_date(daily_date, "daily_date"),
        assisted=bool(assisted),
    )


_CURRENT_COLUMNS: Final = (
    "user_id, guild_id, variant, deal_number, moves, status, version, undo_count, "
    "started_at, updated_at, daily_date, scored, assisted, hint_line, lost_line, lost_back"
)
_FINISHED_COLUMNS: Final = (
    "id, user_id, guild_id, variant, deal_number, outcome, score, moves, undos, duration_s, "
    "started_at, finished_at, daily_date, assisted"
)


# ---------------------------------------------------------------------- the store


def _transaction(conn: sqlite3.Connection, body: Callable[[sqlite3.Connection], _T]) -> _T:
    """Run ``body`` inside BEGIN IMMEDIATE ... COMMIT; roll back if it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    found = _user_version(conn)
    if found > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"{path} has schema version {found}, but this program knows versions up to "
            f"{SCHEMA_VERSION}: it was written by a newer release. Upgrade the program, or "
            "point REEL_DB at another file."
        )
    for number in range(found + 1, SCHEMA_VERSION + 1):

        def step(conn: sqlite3.Connection, number: int = number) -> None:
            # Another process may have migrated meanwhile: check under the write lock.
            if _user_version(conn) >= number:
                return
            MIGRATIONS[number - 1](conn)
            # PRAGMA takes no parameters; number is an int from this module.
            conn.execute(f"PRAGMA user_version = {int(number)}")

        _transaction(conn, step)


_CURRENT_SQL: Final = f"SELECT {_CURRENT_COLUMNS} FROM current_games WHERE user_id = ?"

_START_SQL: Final = """
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
        lost_back = NULL
    WHERE :replaces_version IS NULL OR current_games.version = :replaces_version
    RETURNING version
"""

_UPDATE_SQL: Final = """
    UPDATE current_games
    SET version = :version, moves = :moves, status = :status, undo_count = :undo_count,
        updated_at = :updated_at
    WHERE user_id = :user_id AND version = :expected_version
"""

_INSERT_FINISHED_SQL: Final = """
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
_NEXT_RUN_SQL: Final = (
    "CASE WHEN last_daily = date(:daily_date, '-1 day') THEN daily_run + 1 ELSE 1 END"
)
_IN_ORDER_SQL: Final = (
    ":daily_date IS NOT NULL AND (last_daily IS NULL OR :daily_date > last_daily)"
)
_PLAYER_TOTALS_SQL: Final = f"""
    INSERT INTO player_totals (user_id, games, wins, best_score, dailies, daily_wins,
        best_streak, last_daily, daily_run)
    VALUES (:user_id, 1, :won, :score, :daily_date IS NOT NULL,
        :won AND :daily_date IS NOT NULL, :daily_date IS NOT NULL, :daily_date,
        :daily_date IS NOT NULL)
    ON CONFLICT (user_id) DO UPDATE SET
        games = games + 1,
        wins = wins + excluded.wins,
        best_score = max(best_score, excluded.best_score),
        dailies = dailies + excluded.dailies,
        daily_wins = daily_wins + excluded.daily_wins,
        best_streak = CASE
            WHEN :daily_date IS NULL THEN best_streak
            WHEN {_IN_ORDER_SQL} THEN max(best_streak, {_NEXT_RUN_SQL})
            ELSE {_BEST_STREAK_SQL.format(user=":user_id")} END,
        daily_run = CASE
            WHEN :daily_date IS NULL THEN daily_run
            WHEN {_IN_ORDER_SQL} THEN {_NEXT_RUN_SQL}
            ELSE {_LAST_RUN_SQL.format(user=":user_id")} END,
        last_daily = CASE
            WHEN {_IN_ORDER_SQL} THEN :daily_date ELSE last_daily END
"""

_GUILD_TOTALS_SQL: Final = """
    INSERT INTO guild_player_totals (guild_id, user_id, games, wins)
    SELECT :guild_id, :user_id, 1, :won WHERE :guild_id IS NOT NULL
    ON CONFLICT (guild_id, user_id) DO UPDATE SET
        games = games + 1,
        wins = wins + excluded.wins
"""

_START_DAILY_SQL: Final = """
    INSERT INTO daily_attempts (user_id, daily_date, guild_id, deal_number, started_at)
    VALUES (:user_id, :daily_date, :guild_id, :deal_number, :started_at)
    ON CONFLICT DO NOTHING
"""


def record_results(conn: sqlite3.Connection, records: Sequence[dict[str, object]]) -> None:
    """Insert finished games (parameter dicts as ``finished_params`` makes) and their totals.

    THE one way a result is written: the service calls it with one record
    inside the transaction that changes the current game; ``bench/leaderboard.py``
    calls it with a million inside one transaction. The per-user and
    per-(server, user) totals are kept in step with ``finished_games`` here,
    in the caller's transaction.
    """
    # A record without "assisted" (as bench/leaderboard.py writes them) is unassisted.
    conn.executemany(
        _INSERT_FINISHED_SQL, (r if "assisted" in r else {**r, "assisted": 0} for r in records)
    )
    conn.executemany(_PLAYER_TOTALS_SQL, records)
    conn.executemany(_GUILD_TOTALS_SQL, records)


_SAVE_SETTINGS_SQL: Final = """
    INSERT INTO user_settings (user_id, symbols, auto_aces, winnable) VALUES (?, ?, ?, ?)
    ON CONFLICT (user_id) DO UPDATE SET
        symbols = excluded.symbols, auto_aces = excluded.auto_aces, winnable = excluded.winnable
"""


def _update_params(u: GameUpdate) -> dict[str, object]:
    return {
        "version": u.version,
        "moves": u.moves,
        "status": u.status,
        "undo_count": u.undo_count,
        "updated_at": _timestamp(u.updated_at),
        "user_id": u.user_id,
        "expected_version": u.expected_version,
    }


def finished_params(f: FinishedGame) -> dict[str, object]:
    """The parameters ``record_results`` takes for one finished game."""
    return {
        "user_id": f.user_id,
        "guild_id": f.guild_id,
        "variant": f.variant,
        "deal_number": f.deal_number,
        "outcome": f.outcome,
        "won": int(f.won),
        "score": f.score,
        "moves": f.moves,
        "undos": f.undos,
        "duration_s": f.duration_s,
        "started_at": _timestamp(f.started_at),
        "finished_at": _timestamp(f.finished_at),
        "daily_date": None if f.daily_date is None else f.daily_date.isoformat(),
        "move_count": f.move_count,
        "assisted": int(f.assisted),
    }


def _check_opens(path: Path) -> None:
    """Open and close the file with sqlite3 (creating it if needed); sqlite3.Error if it can't."""
    sqlite3.connect(path).close()


class Store:
    """The game database. ``await Store.open(path)`` creates or migrates the file."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._conn: aiosqlite.Connection | None = None

    @classmethod
    async def open(cls, path: Path | str) -> Store:
        store = cls(path)
        await store.connect()
        return store

    async def connect(self) -> None:
        """Open the file (creating it if needed), set the pragmas and apply pending migrations."""
        if self._conn is not None:
            return
        # A file that cannot be opened fails here, before aiosqlite: its worker
        # thread, after a failed connect, reports to the event loop later, and
        # raises "Event loop is closed" if the program has stopped it meanwhile
        # (omnilib/aiosqlite#259).
        try:
            await asyncio.to_thread(_check_opens, self.path)
            conn = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreUnavailableError(f"{self.path}: {exc}") from exc
        self._conn = conn
        try:
            await self._run(self._setup)
        except BaseException:
            self._conn = None
            await conn.close()
            raise

    def _setup(self, conn: sqlite3.Connection) -> None:
        for pragma in PRAGMAS:
            conn.execute(pragma)
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        if mode != "wal":
            raise StoreError(f"{self.path}: could not switch to WAL journal mode ({mode})")
        _migrate(conn, self.path)

    async def close(self) -> None:
        """Close the connection; operations already queued on it finish first."""
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()

    async def __aenter__(self) -> Store:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def connection(self) -> aiosqlite.Connection:
        """The open connection (for tests and tools that inspect the file)."""
        if self._conn is None:
            raise StoreError("the store is not open")
        return self._conn

    async def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` on the worker thread with its sqlite3 connection, as one queue item.

        aiosqlite has no public call for this: ``Connection._execute`` is how
        each of its own methods runs a function on the thread (it exists in
        every release the project allows; tests/bot/test_store.py checks it).
        """
        conn = self.connection
        raw: sqlite3.Connection = conn._conn
        try:
            result: _T = await conn._execute(work, raw)  # type: ignore[no-untyped-call]
        except sqlite3.Error as exc:
            raise StoreUnavailableError(f"{self.path}: {exc}") from exc
        return result

    async def schema_version(self) -> int:
        return await self._run(_user_version)

    # ------------------------------------------------------------------ current games

    async def load_game(self, user_id: int) -> CurrentGame | None:
        """The user's current game, or None. ``CorruptRowError`` if a value has the wrong type."""
        row = await self._run(lambda conn: conn.execute(_CURRENT_SQL, (user_id,)).fetchone())
        return None if row is None else _current_from_row(row)

    async def start_game(
        self,
        *,
        user_id: int,
        guild_id: int | None,
        variant: str,
        deal_number: int,
        moves: str,
        status: GameStatus,
        started_at: datetime,
        replaces_version: int | None,
        finished: FinishedGame | None = None,
        daily_date: date | None = None,
        scored: bool = True,
        hint_line: str | None = None,
    ) -> int | None:
        """Make a new current game for the user, recording ``finished`` in the same transaction.

        ``hint_line``: the deal's winning line, if the solver has proven it (see
        ``CurrentGame.hint_line``).

        The new game's version is one more than the row it replaces (1 for a
        first game), so versions never repeat for a user. With
        ``replaces_version`` set, the old row must still be at that version;
        with None, whatever is there is replaced. Returns the new version, or
        None (and writes nothing) if the old row had moved on, or if the game
        is a scored daily and the user's scored attempt of that date already
        exists (another process started it meanwhile).
        """
        params: dict[str, object] = {
            "user_id": user_id,
            "guild_id": guild_id,
            "variant": variant,
            "deal_number": deal_number,
            "moves": moves,
            "status": status,
            "started_at": _timestamp(started_at),
            "replaces_version": replaces_version,
            "daily_date": None if daily_date is None else daily_date.isoformat(),
            "scored": int(scored),
            "hint_line": hint_line,
        }
        record = None if finished is None else finished_params(finished)
        scored_daily = daily_date is not None and scored

        def body(conn: sqlite3.Connection) -> int:
            if record is not None:
                record_results(conn, [record])
            if scored_daily and conn.execute(_START_DAILY_SQL, params).rowcount != 1:
                raise _Refused
            rows = conn.execute(_START_SQL, params).fetchall()
            if not rows:
                raise _Refused
            return int(rows[0][0])

        try:
            return await self._run(lambda conn: _transaction(conn, body))
        except _Refused:
            return None

    async def save_game(self, update: GameUpdate, finished: FinishedGame | None = None) -> bool:
        """Write a new state of a current game (and record it as finished, atomically).

        Returns False, writing nothing, if the row is no longer at
        ``update.expected_version`` (changed by another process) or is gone.
        """
        params = _update_params(update)
        if finished is None:
            # One statement in autocommit mode: its own transaction.
            return await self._run(lambda conn: conn.execute(_UPDATE_SQL, params).rowcount == 1)
        record = finished_params(finished)

        def body(conn: sqlite3.Connection) -> None:
            if conn.execute(_UPDATE_SQL, params).rowcount != 1:
                raise _Refused
            record_results(conn, [record])

        try:
            await self._run(lambda conn: _transaction(conn, body))
        except _Refused:
            return False
        return True

    async def mark_assisted(
        self,
        user_id: int,
        version: int,
        hint_line: str | None = None,
        lost: tuple[str, int | None] | None = None,
    ) -> bool:
        """Mark the user's current game assisted (a hint was asked for), and keep
        ``hint_line`` as its hint line if given, and ``lost`` (``lost_line``,
        ``lost_back``) as its proof of loss if given (None keeps what is stored);
        its version stays.

        Returns False, writing nothing, if the row is no longer at ``version``.
        """
        lost_line, lost_back = (None, None) if lost is None else lost
        return await self._run(
            lambda conn: (
                conn.execute(
                    "UPDATE current_games SET assisted = 1,"
                    " hint_line = coalesce(:hint_line, hint_line),"
                    " lost_back = CASE WHEN :lost_line IS NULL THEN lost_back"
                    " ELSE :lost_back END,"
                    " lost_line = coalesce(:lost_line, lost_line)"
                    " WHERE user_id = :user_id AND version = :version",
                    {
                        "user_id": user_id,
                        "version": version,
                        "hint_line": hint_line,
                        "lost_line": lost_line,
                        "lost_back": lost_back,
                    },
                ).rowcount
                == 1
            )
        )

    # ------------------------------------------------------------------ finished games

    async def finished_games(self, user_id: int | None = None) -> list[FinishedGame]:
        """Recorded games, oldest first: one user's, or everyone's."""
        sql = f"SELECT {_FINISHED_COLUMNS} FROM finished_games"
        if user_id is None:
            rows = await self._run(lambda conn: conn.execute(sql + " ORDER BY id").fetchall())
        else:
            rows = await self._run(
                lambda conn: conn.execute(
                    sql + " WHERE user_id = ? ORDER BY id", (user_id,)
                ).fetchall()
            )
        return [_finished_from_row(row) for row in rows]

    # ------------------------------------------------------------------ daily and leaderboards

    async def has_daily_attempt(self, user_id: int, day: date) -> bool:
        """Whether the user has started their scored daily of ``day`` (finished or not)."""
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT 1 FROM daily_attempts WHERE user_id = ? AND daily_date = ?",
                (user_id, day.isoformat()),
            ).fetchone()
        )
        return row is not None

    async def daily_board(
        self, day: date, guild_id: int | None, offset: int, limit: int
    ) -> tuple[int, list[DailyResult]]:
        """(total, rows) of the daily leaderboard of ``day``: one server's, or global (None).

        Ranked won first, then more cards home, fewer moves, earlier finish
        (then user id), read in order off ``finished_games_daily_(guild_)rank``.
        """
        where = "daily_date = ?" + ("" if guild_id is None else " AND guild_id = ?")
        args: tuple[object, ...] = (day.isoformat(),) + (() if guild_id is None else (guild_id,))
        count_sql = f"SELECT count(*) FROM finished_games WHERE {where}"
        rows_sql = (
            "SELECT user_id, guild_id, won, score, move_count, undos, duration_s, finished_at, "
            "assisted "
            f"FROM finished_games WHERE {where} ORDER BY {_DAILY_ORDER} LIMIT ? OFFSET ?"
        )

        total, rows = await self._page(count_sql, rows_sql, args, limit, offset)
        return total, [
            DailyResult(
                user_id=_int(r[0], "user_id"),
                guild_id=_opt_int(r[1], "guild_id"),
                won=bool(r[2]),
                score=_int(r[3], "score"),
                move_count=_int(r[4], "move_count"),
                undos=_int(r[5], "undos"),
                duration_s=_int(r[6], "duration_s"),
                finished_at=_parse_timestamp(r[7], "finished_at"),
                assisted=bool(r[8]),
            )
            for r in rows
        ]

    async def _page(
        self, count_sql: str, rows_sql: str, args: tuple[object, ...], limit: int, offset: int
    ) -> tuple[int, list[Any]]:
        """(total rows, one page) in one trip; ``rows_sql`` ends in LIMIT ? OFFSET ?."""

        def read(conn: sqlite3.Connection) -> tuple[int, list[Any]]:
            total = int(conn.execute(count_sql, args).fetchone()[0])
            return total, conn.execute(rows_sql, (*args, limit, offset)).fetchall()

        return await self._run(read)

    async def all_time_board(
        self, guild_id: int | None, offset: int, limit: int
    ) -> tuple[int, list[Totals]]:
        """(total, rows) of the all-time leaderboard: one server's, or global (None).

        Ranked by wins, then win rate (none below ``MIN_GAMES_FOR_RATE``
        games, ranked after any rate), then games, then user id; read in
        order off ``player_totals_rank`` / ``guild_player_totals_rank``.
        """
        streak = (
            "(SELECT best_streak FROM player_totals AS p "
            "WHERE p.user_id = guild_player_totals.user_id)"
        )
        if guild_id is None:
            count_sql = "SELECT count(*) FROM player_totals"
            rows_sql = (
                "SELECT user_id, games, wins, best_streak FROM player_totals "
                f"ORDER BY {_ALL_TIME_ORDER} LIMIT ? OFFSET ?"
            )
            args: tuple[object, ...] = ()
        else:
            count_sql = "SELECT count(*) FROM guild_player_totals WHERE guild_id = ?"
            rows_sql = (
                f"SELECT user_id, games, wins, coalesce({streak}, 0) FROM guild_player_totals "
                f"WHERE guild_id = ? ORDER BY {_ALL_TIME_ORDER} LIMIT ? OFFSET ?"
            )
            args = (guild_id,)

        total, rows = await self._page(count_sql, rows_sql, args, limit, offset)
        return total, [
            Totals(
                user_id=_int(r[0], "user_id"),
                games=_int(r[1], "games"),
                wins=_int(r[2], "wins"),
                best_streak=_int(r[3], "best_streak"),
            )
            for r in rows
        ]

    async def player_totals(self, user_id: int) -> PlayerTotals | None:
        """The user's totals, or None if they have finished no game."""
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT user_id, games, wins, best_score, dailies, daily_wins, best_streak, "
                "last_daily, daily_run FROM player_totals WHERE user_id = ?",
                (user_id,),
            ).fetchone()
        )
        if row is None:
            return None
        user, games, wins, best_score, dailies, daily_wins, best_streak = (
            _int(value, "player_totals") for value in row[:7]
        )
        return PlayerTotals(
            user_id=user,
            games=games,
            wins=wins,
            best_score=best_score,
            dailies=dailies,
            daily_wins=daily_wins,
            best_streak=best_streak,
            last_daily=_parse_date(row[7], "last_daily"),
            daily_run=_int(row[8], "daily_run"),
        )

    async def daily_dates(self, user_id: int) -> list[date]:
        """The dates of the user's finished scored dailies, latest first."""
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT daily_date FROM finished_games "
                "WHERE user_id = ? AND daily_date IS NOT NULL ORDER BY daily_date DESC",
                (user_id,),
            ).fetchall()
        )
        return [d for (value,) in rows if (d := _parse_date(value, "daily_date")) is not None]

    async def load_daily_deal(self, day: date) -> DailyDeal | None:
        """The stored deal of ``day``'s daily, or None if none was chosen yet."""
        row = await self._run(
            lambda conn: conn.execute(_DAILY_DEAL_SQL, (day.isoformat(),)).fetchone()
        )
        return None if row is None else _daily_deal_from_row(day, row)

    async def save_daily_deal(self, deal: DailyDeal) -> DailyDeal:
        """Store ``deal`` unless the date has one already; returns the one stored.

        The first writer wins (another process may have chosen the date's deal
        meanwhile), so a date's deal never changes once stored.
        """
        params = (deal.day.isoformat(), deal.deal_number, deal.line, deal.par)

        def body(conn: sqlite3.Connection) -> Any:
            conn.execute(
                "INSERT INTO daily_deals (day, deal_number, line, par) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (day) DO NOTHING",
                params,
            )
            return conn.execute(_DAILY_DEAL_SQL, params[:1]).fetchone()

        row = await self._run(lambda conn: _transaction(conn, body))
        return _daily_deal_from_row(deal.day, row)

    # ------------------------------------------------------------------ settings

    async def load_settings(self, user_id: int) -> UserSettings | None:
        row = await self._run(
            lambda conn: conn.execute(
                "SELECT symbols, auto_aces, winnable FROM user_settings WHERE user_id = ?",
                (user_id,),
            ).fetchone()
        )
        if row is None:
            return None
        return UserSettings(symbols=bool(row[0]), auto_aces=bool(row[1]), winnable=bool(row[2]))

    async def save_settings(self, user_id: int, settings: UserSettings) -> None:
        params = (
            user_id,
            int(settings.symbols),
            int(settings.auto_aces),
            int(settings.winnable),
        )
        await self._run(lambda conn: conn.execute(_SAVE_SETTINGS_SQL, params))

    # ------------------------------------------------------------------ checks

    async def integrity_check(self) -> str:
        """``PRAGMA integrity_check``: "ok" for a sound file."""
        rows = await self._run(lambda conn: conn.execute("PRAGMA integrity_check").fetchall())
        return "\n".join(str(row[0]) for row in rows)
