"""The SQLite store: schema, migrations, durability settings, versioned writes."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path

import aiosqlite
import pytest

import bot.store as store_module
from bot.store import (
    SCHEMA_VERSION,
    CorruptRowError,
    FinishedGame,
    GameUpdate,
    SchemaTooNewError,
    Store,
    UserSettings,
)

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
    return await store.start_game(**values)  # type: ignore[arg-type]


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


def pragma(path: Path, name: str) -> object:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]


# ---------------------------------------------------------------------- a fresh file


async def test_a_fresh_file_gets_the_latest_schema(store: Store, db_path: Path) -> None:
    assert await store.schema_version() == SCHEMA_VERSION
    rows = await store.connection.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    )
    assert {row[0] for row in rows} == {"current_games", "finished_games", "user_settings"}
    assert await store.load_game(1) is None
    assert await store.finished_games() == []
    assert await store.load_settings(1) is None


async def test_the_connection_is_wal_with_full_sync_and_a_busy_timeout(store: Store) -> None:
    async def value(name: str) -> object:
        rows = list(await store.connection.execute_fetchall(f"PRAGMA {name}"))
        return rows[0][0]

    assert await value("journal_mode") == "wal"
    assert await value("synchronous") == 2  # FULL
    assert await value("busy_timeout") == store_module.BUSY_TIMEOUT_MS


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


EARLIER_VERSIONS: dict[int, Callable[[Path], None]] = {0: _empty, 1: _written_by_v1}


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


async def test_a_database_from_a_newer_release_is_refused(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNewError, match="newer release"):
        await Store.open(db_path)
    assert pragma(db_path, "user_version") == SCHEMA_VERSION + 1


async def test_a_failing_migration_leaves_the_previous_version_whole(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def v2_breaks_halfway(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE daily_attempts (user_id INTEGER)")
        raise RuntimeError("migration bug")

    _written_by_v1(db_path)
    monkeypatch.setattr(store_module, "MIGRATIONS", (*store_module.MIGRATIONS, v2_breaks_halfway))
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(RuntimeError, match="migration bug"):
        await Store.open(db_path)
    assert pragma(db_path, "user_version") == 1
    with sqlite3.connect(db_path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "daily_attempts" not in tables


async def test_a_later_migration_runs_once_on_top_of_v1(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def v2_adds_assisted_flag(conn: sqlite3.Connection) -> None:
        calls.append(2)
        conn.execute(
            "ALTER TABLE finished_games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0"
        )

    _written_by_v1(db_path)
    monkeypatch.setattr(
        store_module, "MIGRATIONS", (*store_module.MIGRATIONS, v2_adds_assisted_flag)
    )
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    async with Store(db_path) as store:
        assert await store.schema_version() == SCHEMA_VERSION + 1
        assert len(await store.finished_games(7)) == 1
    async with Store(db_path):
        pass
    assert calls == [2]


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
        "INSERT INTO current_games VALUES (3, NULL, 'vr', 'forty-two', '', 'playing', 1, 0, "
        "'2025-03-01T12:00:00+00:00', 'yesterday')"
    )
    with pytest.raises(CorruptRowError, match="deal_number"):
        await store.load_game(3)


async def test_settings_round_trip(store: Store) -> None:
    await store.save_settings(5, UserSettings(symbols=False, auto_aces=False))
    await store.save_settings(5, UserSettings(symbols=False, auto_aces=True))
    assert await store.load_settings(5) == UserSettings(symbols=False, auto_aces=True)
    assert await store.load_settings(6) is None


def test_aiosqlite_still_runs_functions_on_its_thread() -> None:
    # Store._run relies on this internal of aiosqlite (see its docstring).
    assert asyncio.iscoroutinefunction(aiosqlite.Connection._execute)


async def test_a_cancelled_write_still_completes_whole(store: Store) -> None:
    await start(store)
    task = asyncio.create_task(store.save_game(update(version=2, expected=1), finished()))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The write was queued whole on the worker thread: both statements are there.
    await store.integrity_check()
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
    assert await store.integrity_check() == "ok"
