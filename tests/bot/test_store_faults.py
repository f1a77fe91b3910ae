"""The store under faults: a lock held elsewhere, a stalled connection, a full disk, the
file deleted or replaced under it. Each call gives up having applied nothing, with an
error that says which fault it was, and the store recovers by itself when the fault ends."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.store import (
    FinishedGame,
    GameStart,
    GameUpdate,
    Store,
    StoreBusyError,
    StoreFullError,
    StoreMissingError,
    StoreReadOnlyError,
)

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


async def start(store: Store, user_id: int, moves: str = "") -> int | None:
    return await store.start_game(
        GameStart(
            user_id=user_id,
            guild_id=10,
            variant="vr",
            deal_number=42,
            moves=moves,
            status="playing",
            started_at=T0,
            replaces_version=None,
        )
    )


def update(user_id: int, expected: int, moves: str) -> GameUpdate:
    return GameUpdate(user_id, expected, expected + 1, moves, "playing", 0, T0)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "reel.db")
    yield opened
    await opened.close()


def hold_write_lock(path: Path) -> sqlite3.Connection:
    """Another connection's open write transaction on ``path`` (a stalled writer)."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


async def test_a_write_behind_another_connections_lock_gives_up_and_applies_nothing(
    store: Store,
) -> None:
    await start(store, 1)
    other = hold_write_lock(store.path)
    try:
        with pytest.raises(StoreBusyError, match="locked"):
            await store.save_game(update(1, 1, "R6 ACE"))
        row = await store.load_game(1)  # reads go on (WAL) while the writer is stalled
        assert row is not None and (row.version, row.moves) == (1, "")
    finally:
        other.close()
    assert await store.save_game(update(1, 1, "R6 ACE"))


async def test_a_restart_while_another_connection_holds_the_lock_opens_and_serves_after(
    tmp_path: Path,
) -> None:
    path = tmp_path / "reel.db"
    first = await Store.open(path)
    await start(first, 1)
    await first.close()
    other = hold_write_lock(path)  # a stall still going on when the bot starts again
    try:
        store = await Store.open(path)  # not refused as read-only, nor as busy
        row = await store.load_game(1)
        assert row is not None and row.version == 1
        with pytest.raises(StoreBusyError):
            await store.save_game(update(1, 1, "R6 ACE"))
    finally:
        other.close()
    try:
        assert await store.save_game(update(1, 1, "R6 ACE"))  # the stall is over
    finally:
        await store.close()


async def test_calls_queued_behind_a_stalled_one_give_up_instead_of_waiting_in_line(
    store: Store,
) -> None:
    await start(store, 1)
    await start(store, 2)
    store.turn_wait = 0.2
    other = hold_write_lock(store.path)
    try:
        results = await asyncio.gather(
            store.save_game(update(1, 1, "R6 ACE")),
            store.save_game(update(2, 1, "R6 ACE")),
            store.load_game(2),
            return_exceptions=True,
        )
    finally:
        other.close()
    # The first waits on SQLite's lock, the second with it (one group: sqlite/group.py);
    # the read never got the connection in time.
    assert [type(r) for r in results] == [StoreBusyError, StoreBusyError, StoreBusyError]
    assert "no turn on the connection" in str(results[2])
    for user in (1, 2):
        row = await store.load_game(user)
        assert row is not None and row.version == 1
    assert await store.save_game(update(2, 1, "R6 ACE"))


async def test_a_full_disk_refuses_the_write_whole_and_passes_when_space_is_back(
    store: Store,
) -> None:
    conn = store.connection
    [(pages,)] = await conn.execute_fetchall("PRAGMA page_count")
    await conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full now
    long_line = ";".join(["deal"] * 400)
    written = 0
    with pytest.raises(StoreFullError, match="full"):
        for user in range(1, 200):
            assert await start(store, user, long_line) == 1
            written += 1
    assert [row.user_id for row in [await store.load_game(u) for u in range(1, 200)] if row] == (
        list(range(1, written + 1))
    )
    await conn.execute("PRAGMA max_page_count = 1000000")  # space again
    assert await start(store, written + 1, long_line) == 1


@pytest.mark.parametrize("deleted", [("",), ("", "-wal", "-shm")], ids=["file", "with-wal"])
async def test_a_database_deleted_under_the_store_refuses_everything_until_restored(
    store: Store, tmp_path: Path, deleted: tuple[str, ...]
) -> None:
    await start(store, 1)
    assert await store.save_game(update(1, 1, "deal"))  # in the WAL, not yet in the file
    backup = tmp_path / "backup.db"
    await store.backup(backup)
    assert await store.save_game(update(1, 2, "deal;deal"))  # after the backup: lost with the file
    reopened: list[str] = []
    store.on_reopen(lambda: reopened.append("again"))
    for suffix in deleted:
        Path(f"{store.path}{suffix}").unlink(missing_ok=True)
    with pytest.raises(StoreMissingError, match="gone"):
        await store.save_game(update(1, 1, "R6 ACE"))
    with pytest.raises(StoreMissingError):
        await store.load_game(1)
    assert not store.path.exists()  # no empty database was made in its place
    shutil.copy(backup, tmp_path / "restoring.db")
    os.replace(tmp_path / "restoring.db", store.path)
    row = await store.load_game(1)  # the backup's row, not the deleted file's log
    assert row is not None and (row.version, row.moves) == (2, "deal")
    assert reopened == ["again"]
    assert await store.save_game(update(1, 2, "deal;R6 ACE"))


async def test_a_database_replaced_under_the_store_is_opened_in_its_place(
    store: Store, tmp_path: Path
) -> None:
    await start(store, 1)
    other = await Store.open(tmp_path / "other.db")
    await start(other, 1, "deal")
    assert await other.save_game(update(1, 1, "deal;deal"))
    await other.close()
    reopened: list[str] = []
    store.on_reopen(lambda: reopened.append("again"))
    os.replace(tmp_path / "other.db", store.path)
    row = await store.load_game(1)
    assert row is not None and (row.version, row.moves) == (2, "deal;deal")
    assert reopened == ["again"]
    assert not await store.save_game(update(1, 1, "R6 ACE"))  # the old version: refused
    assert await store.save_game(update(1, 2, "deal;deal;R6 ACE"))


async def test_a_write_refused_as_read_only_applies_nothing_and_the_next_one_passes(
    store: Store,
) -> None:
    await start(store, 1)
    await store.connection.execute("PRAGMA query_only = ON")  # as a read-only disk answers
    with pytest.raises(StoreReadOnlyError):
        await store.save_game(update(1, 1, "R6 ACE"))
    await store.connection.execute("PRAGMA query_only = OFF")
    row = await store.load_game(1)
    assert row is not None and row.version == 1
    assert await store.save_game(update(1, 1, "R6 ACE"))


# --------------------------------------------------------------------------- a failed ROLLBACK


def finished_game(user_id: int) -> FinishedGame:
    return FinishedGame(
        user_id=user_id, guild_id=10, variant="vr", deal_number=42, outcome="abandoned",
        score=9, moves="R6 ACE;deal", undos=0, duration_s=60, started_at=T0, finished_at=T0,
    )  # fmt: skip


async def test_a_failed_rollback_leaves_no_transaction_open_and_the_next_call_commits(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A transaction that fails (a new game over a version that is not the stored one,
    after its finished game was inserted) and whose ROLLBACK fails too (injected: a disk
    error): the caller gets the transaction's own outcome, nothing of it is written, and
    the connection is not left inside it: the next call's move is committed, visible to
    another connection, and a transaction after it begins as usual."""
    assert await start(store, 1) == 1
    assert await start(store, 2) == 1
    connection = store.connection
    real_execute = connection.execute
    failed: list[str] = []

    async def execute(sql: str, *args: object, **kwargs: object) -> object:
        if sql == "ROLLBACK" and not failed:
            failed.append(sql)
            raise sqlite3.OperationalError("disk I/O error (injected)")
        return await real_execute(sql, *args, **kwargs)

    monkeypatch.setattr(connection, "execute", execute)
    refused = await store.start_game(GameStart(
        user_id=1, guild_id=10, variant="vr", deal_number=43, moves="", status="playing",
        started_at=T0, replaces_version=7,
    ), finished_game(1))  # fmt: skip
    assert refused is None and failed == ["ROLLBACK"]  # its own outcome: refused, stale
    assert "ROLLBACK failed" in caplog.text
    assert await store.save_game(update(2, 1, "R6 ACE"))  # the next call: a move, committed
    other = sqlite3.connect(tmp_path / "reel.db")
    try:
        assert other.execute("SELECT count(*) FROM finished_games").fetchone() == (0,)
        assert other.execute(
            "SELECT version, moves FROM current_games WHERE user_id = 2"
        ).fetchone() == (2, "R6 ACE")
    finally:
        other.close()
    assert await start(store, 3) == 1  # a transaction begins again (BEGIN IMMEDIATE)
    assert not store.connection.in_transaction
