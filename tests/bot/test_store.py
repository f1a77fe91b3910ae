"""The SQLite store: schema, migrations, durability settings, versioned writes."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.store import (
    BUSY_TIMEOUT_MS,
    MIGRATIONS,
    SCHEMA_VERSION,
    CorruptRowError,
    DailyDeal,
    FinishedGame,
    GameStart,
    GameUpdate,
    Migration,
    PlayerTotals,
    SchemaTooNewError,
    Store,
    StoreError,
    StoreUnavailableError,
    UserSettings,
)
from bot.store.sqlite import queries

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
T1 = datetime(2025, 3, 1, 12, 5, tzinfo=UTC)


def finished(user_id: int = 1, outcome: str = "abandoned", **fields: object) -> FinishedGame:
    values: dict[str, object] = {
        "user_id": user_id,
        "guild_id": 10,
        "variant": "vr",
        "deal_number": 42,
        "outcome": outcome,
        "score": 9,
        "moves": "R6 ACE;deal",
        "undos": 1,
        "duration_s": 300,
        "started_at": T0,
        "finished_at": T1,
    }
    values.update(fields)
    return FinishedGame(**values)  # type: ignore[arg-type]


async def start(store: Store, user_id: int = 1, **fields: object) -> int | None:
    values: dict[str, object] = {
        "user_id": user_id,
        "guild_id": 10,
        "variant": "vr",
        "deal_number": 42,
        "moves": "",
        "status": "playing",
        "started_at": T0,
        "replaces_version": None,
    }
    values.update(fields)
    finished = values.pop("finished", None)
    return await store.start_game(GameStart(**values), finished)  # type: ignore[arg-type]


def update(version: int, expected: int, moves: str = "R6 ACE", user_id: int = 1) -> GameUpdate:
    return GameUpdate(
        user_id=user_id,
        expected_version=expected,
        version=version,
        moves=moves,
        status="playing",
        undo_count=0,
        updated_at=T1,
    )


async def daily_dates(store: Store, user_id: int, variant: str = "vr") -> list[date]:
    """The dates of the user's scored dailies of a game, the latest first."""
    rows = await store.connection.execute_fetchall(
        "SELECT daily_date FROM finished_games WHERE user_id = ? AND variant = ? "
        "AND daily_date IS NOT NULL ORDER BY daily_date DESC",
        (user_id, variant),
    )
    return [date.fromisoformat(value) for (value,) in rows]


async def integrity(store: Store) -> str:
    """``PRAGMA integrity_check``: "ok" for a sound file."""
    rows = await store.connection.execute_fetchall("PRAGMA integrity_check")
    return "\n".join(str(row[0]) for row in rows)


async def assert_totals_match_results(store: Store) -> None:
    """The totals tables hold exactly what a GROUP BY over finished_games gives."""
    from streaks import streaks

    rows = await store.connection.execute_fetchall(
        "SELECT user_id, variant, count(*), sum(won), max(score), count(daily_date), "
        "sum(won AND daily_date IS NOT NULL) FROM finished_games "
        "GROUP BY user_id, variant ORDER BY 1, 2"
    )
    expected = []
    for user_id, variant, games, wins, best_score, dailies, daily_wins in rows:
        days = await daily_dates(store, user_id, variant)
        last = days[0] if days else None
        run, best = streaks(days, last) if last else (0, 0)
        expected.append(
            (user_id, variant, games, wins, best_score, dailies, daily_wins, best,
             last and str(last), run)
        )  # fmt: skip
    got = await store.connection.execute_fetchall(
        "SELECT user_id, variant, games, wins, best_score, dailies, daily_wins, best_streak, "
        "last_daily, daily_run FROM player_totals ORDER BY 1, 2"
    )
    assert [tuple(r) for r in got] == expected
    by_guild = await store.connection.execute_fetchall(
        "SELECT guild_id, variant, user_id, count(*), sum(won) FROM finished_games "
        "WHERE guild_id IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
    )
    got = await store.connection.execute_fetchall(
        "SELECT guild_id, variant, user_id, games, wins FROM guild_player_totals ORDER BY 1, 2, 3"
    )
    assert [tuple(r) for r in got] == [tuple(r) for r in by_guild]


def pragma(path: Path, name: str) -> object:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]


# ---------------------------------------------------------------------- a fresh file


async def test_a_fresh_file_gets_the_latest_schema(store: Store, db_path: Path) -> None:
    assert await store.schema_version() == SCHEMA_VERSION
    rows = await store.connection.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    )
    assert {row[0] for row in rows} == {
        "current_games",
        "finished_games",
        "user_settings",
        "daily_attempts",
        "player_totals",
        "guild_player_totals",
        "daily_deals",
        "races",
        "racers",
    }
    assert await store.load_game(1) is None
    assert await store.finished_games() == []
    assert await store.load_settings(1) is None


SCHEMA_V7 = Path(__file__).with_name("schema_v7.json")


def sqlite_master(path: Path) -> list[list[object]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
        return [list(row) for row in rows]


def words(sql: object) -> object:
    """A CREATE statement's text with its white space folded (None stays None)."""
    return " ".join(sql.split()) if isinstance(sql, str) else sql


async def test_a_fresh_file_at_version_7_has_the_shipped_schema(db_path: Path) -> None:
    # The first seven migrations, now .sql files, make the schema the releases that
    # shipped them made (later ones may add to it): every table, index and column, and
    # each CREATE statement's text, comments included, up to its indentation.
    async with Store(db_path, MIGRATIONS[:7]) as store:
        assert await store.schema_version() == 7
    golden = json.loads(SCHEMA_V7.read_text())
    assert golden["user_version"] == 7
    assert [[*row[:3], words(row[3])] for row in sqlite_master(db_path)] == [
        [*row[:3], words(row[3])] for row in golden["sqlite_master"]
    ]


def test_the_migrations_are_the_numbered_sql_files_of_the_package() -> None:
    assert [m.number for m in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1))
    assert MIGRATIONS[0].name == "0001_initial_schema.sql"
    assert all(m.statements() for m in MIGRATIONS)
    # a statement that runs over several lines, comments inside, is one statement
    assert Migration(
        9, "0009_x.sql", "-- a\nCREATE TABLE t (  -- b;\n a INT\n);\n"
    ).statements() == ["-- a\nCREATE TABLE t (  -- b;\n a INT\n);"]
    with pytest.raises(StoreError, match=r"0009_x\.sql"):
        Migration(9, "0009_x.sql", "CREATE TABLE t (a INT)\n").statements()


async def test_the_connection_is_wal_with_full_sync_and_a_busy_timeout(store: Store) -> None:
    async def value(name: str) -> object:
        rows = list(await store.connection.execute_fetchall(f"PRAGMA {name}"))
        return rows[0][0]

    assert await value("journal_mode") == "wal"
    assert await value("synchronous") == 2  # FULL
    assert await value("busy_timeout") == BUSY_TIMEOUT_MS


async def test_reopening_a_current_file_changes_nothing(db_path: Path) -> None:
    async with Store(db_path) as store:
        assert await start(store) == 1
    async with Store(db_path) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        game = await store.load_game(1)
        assert game is not None and game.deal_number == 42


# ---------------------------------------------------------------------- migrations

# A database as each earlier release wrote it, in raw SQL frozen here: never edit one,
# add one for each new schema version.


def _empty(path: Path) -> None:
    path.touch()


def _written_by_v1(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE current_games (
                user_id INTEGER PRIMARY KEY, guild_id INTEGER, variant TEXT NOT NULL,
                deal_number INTEGER NOT NULL, moves TEXT NOT NULL DEFAULT '',
                status TEXT NOT NULL, version INTEGER NOT NULL,
                undo_count INTEGER NOT NULL DEFAULT 0,
                started_at TEXT NOT NULL, updated_at TEXT NOT NULL);
            CREATE TABLE finished_games (
                id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, guild_id INTEGER,
                variant TEXT NOT NULL, deal_number INTEGER NOT NULL,
                outcome TEXT NOT NULL
                    CHECK (outcome IN ('won', 'lost', 'abandoned', 'resigned')),
                won INTEGER NOT NULL CHECK (won IN (0, 1)), score INTEGER NOT NULL,
                moves TEXT NOT NULL, undos INTEGER NOT NULL, duration_s INTEGER NOT NULL,
                started_at TEXT NOT NULL, finished_at TEXT NOT NULL, daily_date TEXT);
            CREATE INDEX finished_games_by_user ON finished_games (user_id, finished_at);
            CREATE INDEX finished_games_by_guild ON finished_games (guild_id, finished_at);
            CREATE TABLE user_settings (
                user_id INTEGER PRIMARY KEY,
                symbols INTEGER NOT NULL DEFAULT 1 CHECK (symbols IN (0, 1)),
                auto_aces INTEGER NOT NULL DEFAULT 0 CHECK (auto_aces IN (0, 1)));
            INSERT INTO current_games VALUES (7, NULL, 'vr', 28, 'R6 ACE;B5 ACE', 'playing', 5, 1,
                '2025-03-01T12:00:00+00:00', '2025-03-01T12:05:00+00:00');
            INSERT INTO finished_games VALUES (1, 7, 99, 'vr', 3, 'won', 1, 104, 'deal', 0, 60,
                '2025-02-01T12:00:00+00:00', '2025-02-01T12:01:00+00:00', '2025-02-01');
            INSERT INTO user_settings VALUES (7, 0, 1);
            PRAGMA user_version = 1;
            """
        )


def _written_by_v1_with_history(path: Path) -> None:
    """v1 with dailies (written by hand: v1 never set daily_date), one date twice."""
    _written_by_v1(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            INSERT INTO finished_games VALUES (2, 7, 99, 'vr', 4, 'resigned', 0, 30,
                'R6 ACE;deal;+R7 ACE', 2, 90,
                '2025-02-02T12:00:00+00:00', '2025-02-02T12:01:30+00:00', '2025-02-02');
            INSERT INTO finished_games VALUES (3, 7, NULL, 'vr', 5, 'abandoned', 0, 8, '', 0, 5,
                '2025-02-02T13:00:00+00:00', '2025-02-02T13:00:05+00:00', '2025-02-02');
            INSERT INTO finished_games VALUES (4, 7, 98, 'vr', 6, 'won', 1, 104, 'deal', 0, 50,
                '2025-02-04T12:00:00+00:00', '2025-02-04T12:00:50+00:00', '2025-02-04');
            INSERT INTO finished_games VALUES (5, 8, 99, 'vr', 6, 'lost', 0, 12, 'deal;deal', 3,
                70, '2025-02-04T12:00:00+00:00', '2025-02-04T12:01:10+00:00', NULL);
            """
        )


def _written_by_v2(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE current_games (
                user_id INTEGER PRIMARY KEY, guild_id INTEGER, variant TEXT NOT NULL,
                deal_number INTEGER NOT NULL, moves TEXT NOT NULL DEFAULT '',
                status TEXT NOT NULL, version INTEGER NOT NULL,
                undo_count INTEGER NOT NULL DEFAULT 0,
                started_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                daily_date TEXT, scored INTEGER NOT NULL DEFAULT 1 CHECK (scored IN (0, 1)));
            CREATE TABLE finished_games (
                id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, guild_id INTEGER,
                variant TEXT NOT NULL, deal_number INTEGER NOT NULL,
                outcome TEXT NOT NULL
                    CHECK (outcome IN ('won', 'lost', 'abandoned', 'resigned')),
                won INTEGER NOT NULL CHECK (won IN (0, 1)), score INTEGER NOT NULL,
                moves TEXT NOT NULL, undos INTEGER NOT NULL, duration_s INTEGER NOT NULL,
                started_at TEXT NOT NULL, finished_at TEXT NOT NULL, daily_date TEXT,
                move_count INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX finished_games_by_user ON finished_games (user_id, finished_at);
            CREATE INDEX finished_games_by_guild ON finished_games (guild_id, finished_at);
            CREATE TABLE user_settings (
                user_id INTEGER PRIMARY KEY,
                symbols INTEGER NOT NULL DEFAULT 1 CHECK (symbols IN (0, 1)),
                auto_aces INTEGER NOT NULL DEFAULT 0 CHECK (auto_aces IN (0, 1)));
            CREATE UNIQUE INDEX finished_games_daily_by_user ON finished_games (user_id, daily_date)
                WHERE daily_date IS NOT NULL;
            CREATE INDEX finished_games_daily_rank ON finished_games (daily_date, won DESC,
                score DESC, move_count, finished_at, user_id) WHERE daily_date IS NOT NULL;
            CREATE INDEX finished_games_daily_guild_rank ON finished_games (daily_date, guild_id,
                won DESC, score DESC, move_count, finished_at, user_id)
                WHERE daily_date IS NOT NULL;
            CREATE TABLE daily_attempts (
                user_id INTEGER NOT NULL, daily_date TEXT NOT NULL, guild_id INTEGER,
                deal_number INTEGER NOT NULL, started_at TEXT NOT NULL,
                PRIMARY KEY (user_id, daily_date)) WITHOUT ROWID;
            CREATE TABLE player_totals (
                user_id INTEGER PRIMARY KEY, games INTEGER NOT NULL, wins INTEGER NOT NULL,
                best_score INTEGER NOT NULL, dailies INTEGER NOT NULL,
                daily_wins INTEGER NOT NULL, best_streak INTEGER NOT NULL, last_daily TEXT,
                daily_run INTEGER NOT NULL);
            CREATE INDEX player_totals_rank ON player_totals (wins DESC,
                (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);
            CREATE TABLE guild_player_totals (
                guild_id INTEGER NOT NULL, user_id INTEGER NOT NULL, games INTEGER NOT NULL,
                wins INTEGER NOT NULL, PRIMARY KEY (guild_id, user_id)) WITHOUT ROWID;
            CREATE INDEX guild_player_totals_rank ON guild_player_totals (guild_id, wins DESC,
                (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);
            INSERT INTO current_games VALUES (7, 99, 'vr', 28, 'R6 ACE', 'playing', 5, 1,
                '2025-03-01T12:00:00+00:00', '2025-03-01T12:05:00+00:00', '2025-03-01', 0);
            INSERT INTO finished_games VALUES (1, 7, 99, 'vr', 3, 'won', 1, 104, 'deal', 0, 60,
                '2025-02-01T12:00:00+00:00', '2025-02-01T12:01:00+00:00', '2025-02-01', 1);
            INSERT INTO daily_attempts VALUES
                (7, '2025-02-01', 99, 3, '2025-02-01T12:00:00+00:00'),
                (7, '2025-03-01', 99, 28, '2025-03-01T12:00:00+00:00');
            INSERT INTO player_totals VALUES (7, 1, 1, 104, 1, 1, 1, '2025-02-01', 1);
            INSERT INTO guild_player_totals VALUES (99, 7, 1, 1);
            INSERT INTO user_settings VALUES (7, 0, 1);
            PRAGMA user_version = 2;
            """
        )


def _written_by_v3(path: Path) -> None:
    _written_by_v2(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE current_games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0
                CHECK (assisted IN (0, 1));
            ALTER TABLE finished_games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0
                CHECK (assisted IN (0, 1));
            UPDATE current_games SET assisted = 1 WHERE user_id = 7;
            INSERT INTO finished_games VALUES (2, 7, 99, 'vr', 28, 'resigned', 0, 3, 'R6 ACE',
                0, 30, '2025-03-02T12:00:00+00:00', '2025-03-02T12:00:30+00:00', '2025-03-02',
                1, 1);
            PRAGMA user_version = 3;
            """
        )


def _written_by_v4(path: Path) -> None:
    _written_by_v3(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE daily_deals (
                day TEXT PRIMARY KEY, deal_number INTEGER NOT NULL, line TEXT, par INTEGER
            ) WITHOUT ROWID;
            INSERT INTO daily_deals VALUES ('2025-03-01', 28, 'R6 ACE;deal', 2),
                ('2025-03-02', 41, NULL, NULL);
            PRAGMA user_version = 4;
            """
        )


def _written_by_v5(path: Path) -> None:
    _written_by_v4(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE user_settings ADD COLUMN winnable INTEGER NOT NULL DEFAULT 0
                CHECK (winnable IN (0, 1));
            INSERT INTO user_settings VALUES (8, 1, 0, 1);
            PRAGMA user_version = 5;
            """
        )


def _written_by_v6(path: Path) -> None:
    _written_by_v5(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE current_games ADD COLUMN hint_line TEXT;
            UPDATE current_games SET hint_line = 'R6 ACE;deal' WHERE user_id = 7;
            PRAGMA user_version = 6;
            """
        )


def _written_by_v7(path: Path) -> None:
    _written_by_v6(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE current_games ADD COLUMN lost_line TEXT;
            ALTER TABLE current_games ADD COLUMN lost_back INTEGER;
            UPDATE current_games SET lost_line = 'R6 ACE', lost_back = 0 WHERE user_id = 7;
            PRAGMA user_version = 7;
            """
        )


def _written_by_v8(path: Path) -> None:
    _written_by_v7(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE current_games ADD COLUMN redo_moves TEXT NOT NULL DEFAULT '';
            UPDATE current_games SET redo_moves = 'B5 ACE' WHERE user_id = 7;
            PRAGMA user_version = 8;
            """
        )


def _written_by_v9(path: Path) -> None:
    _written_by_v8(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE user_settings ADD COLUMN watchable INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE user_settings ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0;
            UPDATE user_settings SET watchable = 0, reminders = 1 WHERE user_id = 7;
            PRAGMA user_version = 9;
            """
        )


def _written_by_v10(path: Path) -> None:
    _written_by_v9(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE races (
                race_id INTEGER PRIMARY KEY, guild_id INTEGER, channel_id INTEGER NOT NULL,
                host_id INTEGER NOT NULL, variant TEXT NOT NULL, deal_number INTEGER NOT NULL,
                limit_s INTEGER NOT NULL, capacity INTEGER NOT NULL, state TEXT NOT NULL,
                created_at TEXT NOT NULL, starts_at TEXT NOT NULL, started_at TEXT,
                ended_at TEXT, message_id INTEGER
            );
            CREATE TABLE racers (
                race_id INTEGER NOT NULL, user_id INTEGER NOT NULL, joined_at TEXT NOT NULL,
                status TEXT NOT NULL, moves TEXT NOT NULL DEFAULT '',
                version INTEGER NOT NULL DEFAULT 0, undo_count INTEGER NOT NULL DEFAULT 0,
                score INTEGER NOT NULL DEFAULT 0, move_count INTEGER NOT NULL DEFAULT 0,
                elapsed_s REAL NOT NULL DEFAULT 0, place INTEGER,
                PRIMARY KEY (race_id, user_id)
            );
            INSERT INTO races VALUES (1, 1, 2, 7, 'vr', 28, 600, 25, 'over',
                '2026-11-29T09:00:00+00:00', '2026-11-29T09:02:00+00:00',
                '2026-11-29T09:02:00+00:00', '2026-11-29T09:12:00+00:00', 3);
            INSERT INTO racers VALUES (1, 7, '2026-11-29T09:00:00+00:00', 'won', 'deal', 2,
                0, 104, 150, 300.0, 1);
            PRAGMA user_version = 10;
            """
        )


def _written_by_v11(path: Path) -> None:
    _written_by_v10(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE user_settings ADD COLUMN picture INTEGER NOT NULL DEFAULT 0;
            UPDATE user_settings SET picture = 1 WHERE user_id = 7;
            PRAGMA user_version = 11;
            """
        )


def _written_by_v12(path: Path) -> None:
    """Version 12 keys the dailies, attempts and totals by game (what 0012 does, frozen)."""
    _written_by_v11(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE dd (day TEXT NOT NULL, variant TEXT NOT NULL DEFAULT 'vr',
                deal_number INTEGER NOT NULL, line TEXT, par INTEGER,
                PRIMARY KEY (day, variant)) WITHOUT ROWID;
            INSERT INTO dd (day, deal_number, line, par) SELECT * FROM daily_deals;
            DROP TABLE daily_deals;
            ALTER TABLE dd RENAME TO daily_deals;
            CREATE TABLE da (user_id INTEGER NOT NULL, variant TEXT NOT NULL DEFAULT 'vr',
                daily_date TEXT NOT NULL, guild_id INTEGER, deal_number INTEGER NOT NULL,
                started_at TEXT NOT NULL,
                PRIMARY KEY (user_id, variant, daily_date)) WITHOUT ROWID;
            INSERT INTO da (user_id, daily_date, guild_id, deal_number, started_at)
                SELECT * FROM daily_attempts;
            DROP TABLE daily_attempts;
            ALTER TABLE da RENAME TO daily_attempts;
            CREATE TABLE pt (user_id INTEGER NOT NULL, variant TEXT NOT NULL DEFAULT 'vr',
                games INTEGER NOT NULL, wins INTEGER NOT NULL, best_score INTEGER NOT NULL,
                dailies INTEGER NOT NULL, daily_wins INTEGER NOT NULL,
                best_streak INTEGER NOT NULL, last_daily TEXT, daily_run INTEGER NOT NULL,
                PRIMARY KEY (user_id, variant)) WITHOUT ROWID;
            INSERT INTO pt (user_id, games, wins, best_score, dailies, daily_wins,
                best_streak, last_daily, daily_run) SELECT * FROM player_totals;
            DROP TABLE player_totals;
            ALTER TABLE pt RENAME TO player_totals;
            CREATE INDEX player_totals_rank ON player_totals (variant, wins DESC,
                (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC, games DESC, user_id);
            CREATE TABLE gt (guild_id INTEGER NOT NULL, variant TEXT NOT NULL DEFAULT 'vr',
                user_id INTEGER NOT NULL, games INTEGER NOT NULL, wins INTEGER NOT NULL,
                PRIMARY KEY (guild_id, variant, user_id)) WITHOUT ROWID;
            INSERT INTO gt (guild_id, user_id, games, wins) SELECT * FROM guild_player_totals;
            DROP TABLE guild_player_totals;
            ALTER TABLE gt RENAME TO guild_player_totals;
            CREATE INDEX guild_player_totals_rank ON guild_player_totals (guild_id, variant,
                wins DESC, (CASE WHEN games >= 5 THEN wins * 1.0 / games END) DESC,
                games DESC, user_id);
            DROP INDEX finished_games_daily_by_user;
            CREATE UNIQUE INDEX finished_games_daily_by_user
                ON finished_games (user_id, variant, daily_date) WHERE daily_date IS NOT NULL;
            DROP INDEX finished_games_daily_rank;
            CREATE INDEX finished_games_daily_rank ON finished_games (variant, daily_date,
                won DESC, score DESC, move_count, finished_at, user_id)
                WHERE daily_date IS NOT NULL;
            DROP INDEX finished_games_daily_guild_rank;
            CREATE INDEX finished_games_daily_guild_rank ON finished_games (variant,
                daily_date, guild_id, won DESC, score DESC, move_count, finished_at, user_id)
                WHERE daily_date IS NOT NULL;
            INSERT INTO daily_deals (day, deal_number, line, par, variant)
                VALUES ('2025-03-01', 5, NULL, NULL, 'rp');
            PRAGMA user_version = 12;
            """
        )


def _written_by_v13(path: Path) -> None:
    """Version 13 keeps the game clock, ``played_ms``."""
    _written_by_v12(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE current_games ADD COLUMN played_ms INTEGER NOT NULL DEFAULT 0;
            UPDATE current_games SET played_ms = 123456 WHERE user_id = 7;
            PRAGMA user_version = 13;
            """
        )


def _written_by_v14(path: Path) -> None:
    """Version 14 keeps the kind of hint a player chose, ``fair_hints``."""
    _written_by_v13(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE user_settings ADD COLUMN fair_hints INTEGER NOT NULL DEFAULT 1;
            UPDATE user_settings SET fair_hints = 0 WHERE user_id = 7;
            PRAGMA user_version = 14;
            """
        )


def _written_by_v15(path: Path) -> None:
    """Version 15 keeps each daily's difficulty, ``rating``."""
    _written_by_v14(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE daily_deals ADD COLUMN rating TEXT;
            UPDATE daily_deals SET rating = 'Medium' WHERE day = '2025-03-01';
            PRAGMA user_version = 15;
            """
        )


def _written_by_v16(path: Path) -> None:
    """Version 16 keeps a race's computer racer's pace, ``computer_pace_s``."""
    _written_by_v15(path)
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            ALTER TABLE races ADD COLUMN computer_pace_s INTEGER;
            PRAGMA user_version = 16;
            """
        )


EARLIER_VERSIONS: dict[int, Callable[[Path], None]] = {
    0: _empty,
    1: _written_by_v1,
    2: _written_by_v2,
    3: _written_by_v3,
    4: _written_by_v4,
    5: _written_by_v5,
    6: _written_by_v6,
    7: _written_by_v7,
    8: _written_by_v8,
    9: _written_by_v9,
    10: _written_by_v10,
    11: _written_by_v11,
    12: _written_by_v12,
    13: _written_by_v13,
    14: _written_by_v14,
    15: _written_by_v15,
    16: _written_by_v16,
}


def test_every_schema_version_has_a_frozen_example() -> None:
    assert set(EARLIER_VERSIONS) == set(range(SCHEMA_VERSION + 1))


@pytest.mark.parametrize("version", sorted(EARLIER_VERSIONS))
async def test_a_database_from_every_version_opens_at_the_latest(
    version: int, db_path: Path
) -> None:
    EARLIER_VERSIONS[version](db_path)
    assert pragma(db_path, "user_version") == version
    async with Store(db_path) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        assert pragma(db_path, "journal_mode") == "wal"
        # The new schema works for writing too.
        assert await start(store, user_id=500) is not None


async def test_v8_keeps_the_moves_to_redo_and_v7_games_have_none(db_path: Path) -> None:
    _written_by_v7(db_path)
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None and game.redo == "" and game.lost_line == "R6 ACE"
    other = db_path.with_name("v8.db")
    _written_by_v8(other)
    async with Store(other) as store:
        game = await store.load_game(7)
        assert game is not None and game.redo == "B5 ACE"


async def test_v13_gives_a_game_in_play_the_clock_it_showed_and_keeps_it_after(
    db_path: Path,
) -> None:
    _written_by_v12(db_path)  # game 7: dealt at 12:00, its last action at 12:05
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None and game.played_ms == 5 * 60 * 1000
        saved = GameUpdate(7, game.version, game.version + 1, game.moves, "playing", 1, T1,
                           played_ms=301_500)  # fmt: skip
        assert await store.save_game(saved)
        game = await store.load_game(7)
        assert game is not None and game.played_ms == 301_500
        assert await start(store, user_id=7, replaces_version=game.version) is not None
        game = await store.load_game(7)
        assert game is not None and game.played_ms == 0  # a new game's clock starts at 0
    other = db_path.with_name("v13.db")
    _written_by_v13(other)
    async with Store(other) as store:
        game = await store.load_game(7)
        assert game is not None and game.played_ms == 123456


async def test_v14_gives_every_player_fair_hints_and_keeps_a_choice(db_path: Path) -> None:
    _written_by_v13(db_path)
    async with Store(db_path) as store:
        before = await store.load_settings(7)
        assert before is not None and before.fair_hints  # fair for everyone at the upgrade
        await store.save_settings(7, replace(before, fair_hints=False))
        after = await store.load_settings(7)
        assert after is not None and not after.fair_hints and after.picture == before.picture
    other = db_path.with_name("v14.db")
    _written_by_v14(other)
    async with Store(other) as store:
        chosen = await store.load_settings(7)
        assert chosen is not None and not chosen.fair_hints


async def test_a_v1_database_keeps_its_data(db_path: Path) -> None:
    _written_by_v1(db_path)
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None
        assert (game.guild_id, game.deal_number, game.moves) == (None, 28, "R6 ACE;B5 ACE")
        assert (game.status, game.version, game.undo_count) == ("playing", 5, 1)
        assert game.started_at == T0
        [record] = await store.finished_games(7)
        assert (record.id, record.guild_id, record.outcome, record.won) == (1, 99, "won", True)
        assert (record.score, record.duration_s, record.daily_date) == (104, 60, date(2025, 2, 1))
        assert await store.load_settings(7) == UserSettings(symbols=False, auto_aces=True)


async def test_v2_derives_totals_attempts_and_move_counts_from_v1_history(
    db_path: Path,
) -> None:
    _written_by_v1_with_history(db_path)
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None and (game.daily_date, game.scored) == (None, True)
        records = await store.finished_games(7)
        # The second result of 2025-02-02 is no longer a daily: one scored result a date.
        assert [r.daily_date for r in records] == [
            date(2025, 2, 1), date(2025, 2, 2), None, date(2025, 2, 4),
        ]  # fmt: skip
        rows = await store.connection.execute_fetchall(
            "SELECT id, move_count FROM finished_games ORDER BY id"
        )
        assert [tuple(r) for r in rows] == [(1, 1), (2, 3), (3, 0), (4, 1), (5, 2)]
        assert await store.player_totals(7) == PlayerTotals(
            user_id=7,
            games=4,
            wins=2,
            best_score=104,
            dailies=3,
            daily_wins=2,
            best_streak=2,
            last_daily=date(2025, 2, 4),
            daily_run=1,
        )
        assert await store.player_totals(8) == PlayerTotals(8, 1, 0, 12, 0, 0, 0, None, 0)
        rows = await store.connection.execute_fetchall(
            "SELECT guild_id, user_id, games, wins FROM guild_player_totals ORDER BY 1, 2"
        )
        assert [tuple(r) for r in rows] == [(98, 7, 1, 1), (99, 7, 2, 1), (99, 8, 1, 0)]
        for day in (date(2025, 2, 1), date(2025, 2, 2), date(2025, 2, 4)):
            assert await store.has_daily_attempt(7, day)
        assert not await store.has_daily_attempt(7, date(2025, 2, 3))
        assert await daily_dates(store, 7) == [
            date(2025, 2, 4),
            date(2025, 2, 2),
            date(2025, 2, 1),
        ]
        await assert_totals_match_results(store)


async def test_a_v2_database_keeps_its_daily_in_progress(db_path: Path) -> None:
    _written_by_v2(db_path)
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None and (game.daily_date, game.scored) == (date(2025, 3, 1), False)
        assert await store.has_daily_attempt(7, date(2025, 3, 1))
        assert await store.player_totals(7) == PlayerTotals(
            7, 1, 1, 104, 1, 1, 1, date(2025, 2, 1), 1
        )


async def test_v3_upgrades_a_v2_file_with_nothing_assisted(db_path: Path) -> None:
    _written_by_v2(db_path)
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None and game.assisted is False and game.version == 5
        [record] = await store.finished_games(7)
        assert record.assisted is False and record.outcome == "won"
        assert await store.mark_assisted(7, 4) is False  # not at that version: nothing written
        assert (await store.load_game(7)).assisted is False  # type: ignore[union-attr]
        assert await store.mark_assisted(7, 5) is True
        game = await store.load_game(7)
        assert game is not None and game.assisted is True and game.version == 5


async def test_a_v3_file_keeps_its_assisted_marks(db_path: Path) -> None:
    _written_by_v3(db_path)
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None and game.assisted is True
        records = await store.finished_games(7)
        assert [r.assisted for r in records] == [False, True]
        total, [row] = await store.daily_board(date(2025, 3, 2), None, 0, 10)
        assert total == 1 and row.assisted is True


async def test_a_new_game_is_not_assisted_and_the_mark_goes_into_its_record(store: Store) -> None:
    version = await start(store)
    assert version is not None and await store.mark_assisted(1, version)
    over = finished(outcome="abandoned", assisted=True)
    version = await start(store, replaces_version=version, finished=over)
    game = await store.load_game(1)
    assert game is not None and game.assisted is False
    [record] = await store.finished_games(1)
    assert record.assisted is True


async def test_a_v4_file_keeps_its_daily_deals(db_path: Path) -> None:
    _written_by_v4(db_path)
    async with Store(db_path) as store:
        assert await store.load_daily_deal(date(2025, 3, 1)) == DailyDeal(
            date(2025, 3, 1), 28, "R6 ACE;deal", 2
        )
        unproven = await store.load_daily_deal(date(2025, 3, 2))
        assert unproven == DailyDeal(date(2025, 3, 2), 41, None, None)
        assert unproven is not None and not unproven.proven
        assert await store.load_daily_deal(date(2025, 3, 3)) is None


async def test_a_dates_daily_deal_is_stored_once_the_first_writer_winning(store: Store) -> None:
    day = date(2026, 11, 29)
    first = DailyDeal(day, 16, "R1 ACE", 1)
    assert await store.save_daily_deal(first) == first
    # Another process (or an older program) computing it again gets the stored one back.
    assert await store.save_daily_deal(DailyDeal(day, 17, None, None)) == first
    assert await store.load_daily_deal(day) == first


async def test_a_database_from_a_newer_release_is_refused(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNewError, match="newer release"):
        await Store.open(db_path)
    assert pragma(db_path, "user_version") == SCHEMA_VERSION + 1


async def test_a_failing_migration_leaves_the_previous_version_whole(db_path: Path) -> None:
    next_breaks_halfway = Migration(
        SCHEMA_VERSION + 1,
        "9999_breaks_halfway.sql",
        "CREATE TABLE solver_proofs (deal_number INTEGER);\nSELECT * FROM no_such_table;\n",
    )
    EARLIER_VERSIONS[SCHEMA_VERSION](db_path)
    with pytest.raises(StoreUnavailableError, match=r"9999_breaks_halfway\.sql failed"):
        await Store.open(db_path, (*MIGRATIONS, next_breaks_halfway))
    assert pragma(db_path, "user_version") == SCHEMA_VERSION
    with sqlite3.connect(db_path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "solver_proofs" not in tables


async def test_a_later_migration_runs_once_after_the_pending_ones(db_path: Path) -> None:
    # It adds a column, which a second run would fail on ("duplicate column").
    next_adds_a_column = Migration(
        SCHEMA_VERSION + 1,
        "9999_rating.sql",
        "ALTER TABLE finished_games ADD COLUMN rating INTEGER NOT NULL DEFAULT 0;\n",
    )
    migrations = (*MIGRATIONS, next_adds_a_column)
    _written_by_v1(db_path)
    async with Store(db_path, migrations) as store:
        assert await store.schema_version() == SCHEMA_VERSION + 1
        assert len(await store.finished_games(7)) == 1
    async with Store(db_path, migrations) as store:
        assert await store.schema_version() == SCHEMA_VERSION + 1
    with sqlite3.connect(db_path) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(finished_games)")]
    assert columns.count("rating") == 1


# ---------------------------------------------------------------------- current games


async def test_versions_go_on_rising_across_games(store: Store) -> None:
    assert await start(store) == 1
    assert await store.save_game(update(version=2, expected=1))
    assert await start(store, deal_number=43, replaces_version=2) == 3
    game = await store.load_game(1)
    assert game is not None
    assert (game.deal_number, game.moves, game.version, game.undo_count) == (43, "", 3, 0)


async def test_a_write_at_the_wrong_version_changes_nothing(store: Store) -> None:
    await start(store)
    assert not await store.save_game(update(version=5, expected=4, moves="deal"))
    assert not await store.save_game(update(version=2, expected=1, user_id=2))  # no such game
    game = await store.load_game(1)
    assert game is not None and (game.version, game.moves) == (1, "")


async def test_another_connections_commit_is_counted_and_the_stores_own_are_not(
    store: Store, db_path: Path
) -> None:
    # Two processes on one file: each store counts the other's writes, never its own.
    other = await Store.open(db_path)
    try:
        seen = await store.outside_writes()
        await start(store)
        assert await store.save_game(update(version=2, expected=1))
        await store.save_settings(1, UserSettings(symbols=False, auto_aces=False))
        assert await store.outside_writes() == seen  # its own writes: nothing new
        assert await other.save_game(update(version=3, expected=2))
        assert await store.outside_writes() == seen + 1
        assert await store.outside_writes() == seen + 1  # counted once
        with sqlite3.connect(db_path) as plain:  # any connection, any table
            plain.execute("UPDATE user_settings SET symbols = 1 WHERE user_id = 1")
        many = await asyncio.gather(*(store.outside_writes() for _ in range(20)))
        assert set(many) == {seen + 2}  # asked together: one look, one count
    finally:
        await other.close()


async def test_a_games_stored_versions_are_read_in_one_statement(store: Store) -> None:
    assert await store.game_version(1) is None and await store.game_versions([1, 2]) == {}
    await start(store)
    await start(store, user_id=2)
    assert await store.save_game(update(version=2, expected=1, user_id=2))
    assert await store.game_version(2) == 2
    assert await store.game_versions([1, 2, 3]) == {1: 1, 2: 2}
    assert await store.game_version_and_settings(3) == (None, None)
    settings = UserSettings(symbols=False, auto_aces=True, winnable=True)
    await store.save_settings(1, settings)
    assert await store.game_version_and_settings(1) == (1, settings)


async def test_a_finished_game_is_recorded_with_its_last_state_atomically(store: Store) -> None:
    await start(store)
    assert await store.save_game(update(version=2, expected=1), finished(outcome="resigned"))
    [record] = await store.finished_games(1)
    assert (record.outcome, record.won, record.guild_id) == ("resigned", False, 10)
    # At a stale version neither the game nor the record is written.
    assert not await store.save_game(update(version=9, expected=1), finished(outcome="won"))
    assert len(await store.finished_games()) == 1
    game = await store.load_game(1)
    assert game is not None and game.version == 2


async def test_a_new_game_over_a_moved_on_row_writes_nothing(store: Store) -> None:
    await start(store)
    assert await start(store, deal_number=99, replaces_version=7, finished=finished()) is None
    assert await store.finished_games() == []
    game = await store.load_game(1)
    assert game is not None and game.deal_number == 42


async def test_a_row_of_wrong_types_is_reported_as_corrupt(store: Store) -> None:
    await store.connection.execute(
        "INSERT INTO current_games (user_id, guild_id, variant, deal_number, moves, status, "
        "version, undo_count, started_at, updated_at) VALUES (3, NULL, 'vr', 'forty-two', '', "
        "'playing', 1, 0, '2025-03-01T12:00:00+00:00', 'yesterday')"
    )
    with pytest.raises(CorruptRowError, match="deal_number"):
        await store.load_game(3)


async def test_settings_round_trip(store: Store) -> None:
    await store.save_settings(5, UserSettings(symbols=False, auto_aces=False))
    await store.save_settings(5, UserSettings(symbols=False, auto_aces=True))
    assert await store.load_settings(5) == UserSettings(symbols=False, auto_aces=True)
    assert await store.load_settings(6) is None
    await store.save_settings(5, UserSettings(symbols=True, auto_aces=False, winnable=True))
    assert await store.load_settings(5) == UserSettings(True, False, winnable=True)
    both = UserSettings(True, True, winnable=False, watchable=False, reminders=True, picture=True)
    await store.save_settings(5, both)
    assert await store.load_settings(5) == both


async def test_v9_lets_everyone_be_watched_and_reminds_nobody(db_path: Path) -> None:
    _written_by_v8(db_path)
    async with Store(db_path) as store:
        settings = await store.load_settings(7)
    assert settings is not None and (settings.watchable, settings.reminders) == (True, False)


async def test_v5_keeps_the_settings_with_winnable_deals_off(db_path: Path) -> None:
    _written_by_v4(db_path)
    async with Store(db_path) as store:
        assert await store.load_settings(7) == UserSettings(False, True, winnable=False)


async def test_v6_keeps_the_games_with_no_hint_line(db_path: Path) -> None:
    _written_by_v5(db_path)
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None and game.hint_line is None and game.moves == "R6 ACE"


async def test_a_v6_file_keeps_its_hint_lines(db_path: Path) -> None:
    _written_by_v6(db_path)
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None and game.hint_line == "R6 ACE;deal"


async def test_v7_keeps_the_games_with_no_proof_of_loss(db_path: Path) -> None:
    _written_by_v6(db_path)
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None and game.hint_line == "R6 ACE;deal"
        assert (game.lost_line, game.lost_back) == (None, None)


async def test_a_v7_file_keeps_its_proofs_of_loss(db_path: Path) -> None:
    _written_by_v7(db_path)
    async with Store(db_path) as store:
        game = await store.load_game(7)
        assert game is not None and (game.lost_line, game.lost_back) == ("R6 ACE", 0)


async def test_a_proof_of_loss_is_kept_by_a_hint_until_a_new_game(store: Store) -> None:
    version = await start(store)
    assert version is not None
    game = await store.load_game(1)
    assert game is not None and (game.lost_line, game.lost_back) == (None, None)
    assert not await store.mark_assisted(1, version + 1, lost=("R6 ACE", 0))  # wrong version
    assert (await store.load_game(1)).lost_line is None  # type: ignore[union-attr]
    assert await store.mark_assisted(1, version, lost=("R6 ACE", 0))
    game = await store.load_game(1)
    assert game is not None and (game.lost_line, game.lost_back) == ("R6 ACE", 0)
    assert await store.mark_assisted(1, version, "R6 ACE;deal")  # no proof given: it stays
    game = await store.load_game(1)
    assert game is not None and (game.lost_line, game.lost_back) == ("R6 ACE", 0)
    assert await store.mark_assisted(1, version, lost=("", None))  # the deal, nothing back
    game = await store.load_game(1)
    assert game is not None and (game.lost_line, game.lost_back) == ("", None)
    assert await store.save_game(update(version + 1, version))  # a move keeps it
    assert (await store.load_game(1)).lost_line == ""  # type: ignore[union-attr]
    await start(store, replaces_version=version + 1)  # a new game has none
    game = await store.load_game(1)
    assert game is not None and (game.lost_line, game.lost_back) == (None, None)


async def test_a_hint_line_is_kept_from_the_start_and_by_a_hint(store: Store) -> None:
    version = await start(store, hint_line="R6 ACE")
    assert version is not None
    assert (await store.load_game(1)).hint_line == "R6 ACE"  # type: ignore[union-attr]
    assert await store.mark_assisted(1, version)  # no line given: the stored one stays
    game = await store.load_game(1)
    assert game is not None and game.assisted and game.hint_line == "R6 ACE"
    assert not await store.mark_assisted(1, version + 1, "deal")  # wrong version: nothing
    assert await store.mark_assisted(1, version, "R6 ACE;deal")
    assert (await store.load_game(1)).hint_line == "R6 ACE;deal"  # type: ignore[union-attr]
    assert await store.save_game(update(version + 1, version))  # a move keeps the line
    assert (await store.load_game(1)).hint_line == "R6 ACE;deal"  # type: ignore[union-attr]
    await start(store, replaces_version=version + 1)  # a new game has none
    assert (await store.load_game(1)).hint_line is None  # type: ignore[union-attr]


async def test_a_cancelled_write_still_completes_whole(store: Store) -> None:
    await start(store)
    task = asyncio.create_task(store.save_game(update(version=2, expected=1), finished()))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The write had begun: it ran to its end, both statements are there.
    assert await integrity(store) == "ok"
    game = await store.load_game(1)
    assert game is not None and game.version == 2
    assert len(await store.finished_games(1)) == 1


async def test_reads_wait_for_an_open_transaction(store: Store) -> None:
    await start(store)
    loaded: list[int] = []

    async def read() -> None:
        game = await store.load_game(1)
        assert game is not None
        loaded.append(game.version)

    # A read issued while another user's transaction is open must not see its
    # uncommitted state: it waits and reads the committed result.
    writer = asyncio.create_task(store.save_game(update(version=2, expected=1), finished()))
    await asyncio.sleep(0)
    reader = asyncio.create_task(read())
    await asyncio.gather(writer, reader)
    assert loaded == [2]


async def test_integrity_check_is_ok(store: Store) -> None:
    await start(store)
    assert await integrity(store) == "ok"


# ---------------------------------------------------------------------- daily and leaderboards


async def test_totals_are_kept_with_every_recorded_game(store: Store) -> None:
    await start(store, user_id=1)
    day = date(2025, 3, 1)
    results = [
        finished(1, "won", score=104, daily_date=day),
        finished(1, "abandoned", score=20, guild_id=None, daily_date=date(2025, 3, 2)),
        finished(1, "lost", score=50, guild_id=11, daily_date=date(2025, 3, 4)),
        finished(2, "resigned", score=7),
        finished(1, "won", score=104, guild_id=11),
    ]
    version = 1
    for i, record in enumerate(results):
        if i % 2:  # both ways a game gets recorded: a new game over it, or its last change
            new = await start(store, user_id=record.user_id, finished=record)
            assert new is not None
            version = new
        else:
            await start(store, user_id=record.user_id)
            game = await store.load_game(record.user_id)
            assert game is not None
            assert await store.save_game(
                update(game.version + 1, game.version, user_id=record.user_id), record
            )
    assert version > 0
    assert await store.player_totals(1) == PlayerTotals(1, 4, 2, 104, 3, 1, 2, date(2025, 3, 4), 1)
    assert await store.player_totals(2) == PlayerTotals(2, 1, 0, 7, 0, 0, 0, None, 0)
    assert await store.player_totals(3) is None
    await assert_totals_match_results(store)


async def test_one_scored_daily_attempt_per_user_and_date(store: Store) -> None:
    day = date(2025, 3, 1)
    assert not await store.has_daily_attempt(1, day)
    assert await start(store, daily_date=day) == 1
    assert await store.has_daily_attempt(1, day)
    assert not await store.has_daily_attempt(2, day)
    # A second scored start of the same date (another process raced us) writes nothing.
    assert await start(store, daily_date=day, deal_number=7) is None
    game = await store.load_game(1)
    assert game is not None and (game.deal_number, game.daily_date, game.scored) == (42, day, True)
    # An unscored replay is no attempt.
    assert await start(store, daily_date=day, scored=False) == 2
    game = await store.load_game(1)
    assert game is not None and (game.daily_date, game.scored) == (day, False)


async def test_boards_rank_and_page(store: Store) -> None:
    day = date(2025, 3, 1)
    later = datetime(2025, 3, 1, 13, 0, tzinfo=UTC)
    plays = [  # user, guild, won, score, moves, finished
        (1, 10, False, 90, "deal", T1),
        (2, 10, True, 104, "deal;deal", T1),
        (3, 11, True, 104, "deal", later),
        (4, 10, True, 104, "deal", T1),
        (5, None, False, 90, "deal", T0),
    ]
    for user_id, guild_id, won, score, moves, at in plays:
        await start(
            store,
            user_id=user_id,
            finished=finished(
                user_id, "won" if won else "resigned", guild_id=guild_id, score=score,
                moves=moves, finished_at=at, daily_date=day,
            ),
        )  # fmt: skip
    await start(store, user_id=6, finished=finished(6, "won", score=104))  # not a daily
    total, rows = await store.daily_board(day, None, 0, 10)
    assert total == 5 and [r.user_id for r in rows] == [4, 3, 2, 5, 1]
    total, rows = await store.daily_board(day, 10, 1, 2)
    assert total == 3 and [r.user_id for r in rows] == [2, 1]
    assert await store.daily_board(date(2025, 3, 2), None, 0, 10) == (0, [])
    total, everyone = await store.all_time_board(None, 0, 10)
    assert total == 6 and [t.user_id for t in everyone] == [2, 3, 4, 6, 1, 5]
    total, here = await store.all_time_board(10, 0, 10)
    assert total == 4 and [(t.user_id, t.games, t.wins, t.best_streak) for t in here] == [
        (2, 1, 1, 1), (4, 1, 1, 1), (6, 1, 1, 0), (1, 1, 0, 1),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("sql", "index"),
    [
        ("SELECT * FROM finished_games WHERE variant = 'rp' AND daily_date = '2025-03-01' "
         f"ORDER BY {queries.DAILY_ORDER} LIMIT 10 OFFSET 20", "finished_games_daily_rank"),
        ("SELECT * FROM finished_games WHERE variant = 'vr' AND daily_date = '2025-03-01' "
         f"AND guild_id = 5 ORDER BY {queries.DAILY_ORDER} LIMIT 10",
         "finished_games_daily_guild_rank"),
        ("SELECT * FROM player_totals WHERE variant = 'vr' "
         f"ORDER BY {queries.ALL_TIME_ORDER} LIMIT 10", "player_totals_rank"),
        ("SELECT * FROM guild_player_totals WHERE guild_id = 5 AND variant = 'tu' "
         f"ORDER BY {queries.ALL_TIME_ORDER} LIMIT 10", "guild_player_totals_rank"),
    ],
)  # fmt: skip
async def test_leaderboards_read_their_ranking_off_an_index(
    store: Store, sql: str, index: str
) -> None:
    plan = " ".join(
        str(row[3]) for row in await store.connection.execute_fetchall("EXPLAIN QUERY PLAN " + sql)
    )
    assert index in plan
    assert "TEMP B-TREE" not in plan  # no sort: rows come in ranking order


async def test_a_daily_recorded_out_of_date_order_recomputes_the_streaks(store: Store) -> None:
    # Normally impossible (a user's dailies are recorded in date order), but a clock set
    # back must not corrupt the totals: they are then recomputed from the results.
    for n in (3, 1, 4, 2, 7):
        await start(store, finished=finished(1, "resigned", daily_date=date(2025, 3, n)))
        await assert_totals_match_results(store)
    totals = await store.player_totals(1)
    assert totals is not None
    assert (totals.best_streak, totals.last_daily, totals.daily_run) == (4, date(2025, 3, 7), 1)
    assert totals.current_streak(date(2025, 3, 8)) == 1
    assert totals.current_streak(date(2025, 3, 9)) == 0


async def test_a_driver_error_reaches_the_caller_as_a_store_error_and_applies_nothing(
    store: Store,
) -> None:
    assert await start(store) == 1
    await store.connection.execute("PRAGMA query_only = ON")  # every write now fails
    update = GameUpdate(1, 1, 2, "R6 ACE", "playing", 0, T1)
    with pytest.raises(StoreUnavailableError, match="readonly") as caught:
        await store.save_game(update)
    assert isinstance(caught.value.__cause__, sqlite3.Error)
    await store.connection.execute("PRAGMA query_only = OFF")
    row = await store.load_game(1)
    assert row is not None and (row.version, row.moves) == (1, "")
    assert await store.save_game(update)


async def test_a_file_that_is_not_a_database_is_refused_with_a_store_error(
    tmp_path: Path,
) -> None:
    path = tmp_path / "not-a.db"
    path.write_bytes(b"this is not an SQLite file, it is a letter to my aunt " * 40)
    with pytest.raises(StoreUnavailableError, match="not a database"):
        await Store.open(path)


async def test_a_new_database_and_the_folder_made_for_it_are_their_owners_alone(
    tmp_path: Path,
) -> None:
    path = tmp_path / "data" / "reel.db"
    store = await Store.open(path)
    try:
        await store.ping()
    finally:
        await store.close()
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    wal = path.with_name("reel.db-wal")
    if wal.exists():  # SQLite gives the journal the database file's mode
        assert wal.stat().st_mode & 0o077 == 0
    kept = tmp_path / "kept.db"  # a file that exists keeps the mode its owner gave it
    kept.touch(mode=0o640)
    kept.chmod(0o640)
    store = await Store.open(kept)
    await store.close()
    assert kept.stat().st_mode & 0o777 == 0o640
