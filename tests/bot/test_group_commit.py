"""SQLite's group commit (bot/store/sqlite/group.py): moves that wait for the connection
together are committed together, each answered once durable, each its own
compare-and-set; a failure of the group applies none of them and tells every one."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.store import GameStart, GameUpdate, StoreBusyError, StoreUnavailableError
from bot.store.sqlite import SQLiteStore

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
PLAYERS = 12


async def started(path: Path) -> SQLiteStore:
    store = await SQLiteStore.open(path)
    for user in range(1, PLAYERS + 1):
        await store.start_game(
            GameStart(
                user_id=user,
                guild_id=None,
                variant="reel",
                deal_number=user,
                moves="",
                status="playing",
                started_at=T0,
                replaces_version=None,
            )
        )
    return store


def update(user: int, expected: int, moves: str) -> GameUpdate:
    return GameUpdate(
        user_id=user,
        expected_version=expected,
        version=expected + 1,
        moves=moves,
        status="playing",
        undo_count=0,
        updated_at=T0,
        redo="",
    )


def recorded(store: SQLiteStore, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement the store runs on its connection from now on."""
    seen: list[str] = []
    real = store.connection.execute

    async def execute(sql: str, params: Any = None) -> Any:
        seen.append(sql.split()[0])
        return await real(sql, params)

    monkeypatch.setattr(store.connection, "execute", execute)
    return seen


async def waiting_together(store: SQLiteStore, *writes: Any) -> list[Any]:
    """Run ``writes`` (``save_game`` calls) while the connection is busy, so that they
    wait for it together, then free it; their answers (or errors)."""
    await store._turn.acquire()  # someone else's operation holds the connection
    try:
        tasks = [asyncio.ensure_future(w) for w in writes]
        await asyncio.sleep(0.01)
    finally:
        store._turn.release()
    return list(await asyncio.gather(*tasks, return_exceptions=True))


async def test_moves_waiting_together_are_each_applied_once_in_one_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await started(tmp_path / "reel.db")
    try:
        statements = recorded(store, monkeypatch)
        saved = await waiting_together(
            store, *(store.save_game(update(u, 1, "dl")) for u in range(1, PLAYERS + 1))
        )
        assert saved == [True] * PLAYERS
        assert statements == ["BEGIN", *["UPDATE"] * PLAYERS, "COMMIT"]  # one fsync for all
        monkeypatch.undo()
        alone = await store.save_game(update(1, 2, "dl dl"))  # nobody waiting: autocommit
        assert alone and statements[-1] == "COMMIT"
    finally:
        await store.close()
    reopened = await SQLiteStore.open(tmp_path / "reel.db")
    try:
        versions = [await reopened.game_version(u) for u in range(1, PLAYERS + 1)]
        assert versions == [3] + [2] * (PLAYERS - 1)  # durable, and each applied once
    finally:
        await reopened.close()


async def test_a_stale_move_in_a_group_is_refused_and_the_others_apply(tmp_path: Path) -> None:
    store = await started(tmp_path / "reel.db")
    try:
        writes = [store.save_game(update(u, 1, "dl")) for u in range(1, PLAYERS + 1)]
        writes.append(store.save_game(update(3, 1, "dl dl")))  # the same click, again
        saved = await waiting_together(store, *writes)
        assert saved == [True] * PLAYERS + [False]
        game = await store.load_game(3)
        assert game is not None and (game.version, game.moves) == (2, "dl")
    finally:
        await store.close()


async def test_a_group_that_fails_applies_none_of_its_moves_and_tells_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await started(tmp_path / "reel.db")
    try:
        real = store.connection.execute
        updates = 0

        async def failing(sql: str, params: Any = None) -> Any:
            nonlocal updates
            if sql.split()[0] == "UPDATE":
                updates += 1
                if updates == 2:  # the group's second move: the disk fails
                    raise sqlite3.OperationalError("disk I/O error")
            return await real(sql, params)

        monkeypatch.setattr(store.connection, "execute", failing)
        results = await waiting_together(
            store, *(store.save_game(update(u, 1, "dl")) for u in range(1, 5))
        )
        monkeypatch.undo()
        assert all(isinstance(r, StoreUnavailableError) for r in results), results
        assert [await store.game_version(u) for u in range(1, 5)] == [1] * 4  # rolled back
    finally:
        await store.close()


async def test_moves_refused_as_busy_while_they_wait_apply_nothing(tmp_path: Path) -> None:
    store = await started(tmp_path / "reel.db")
    try:
        store.turn_wait = 0.05
        await store._turn.acquire()  # someone holds the connection too long
        try:
            results = await asyncio.gather(
                *(store.save_game(update(u, 1, "dl")) for u in range(1, 4)),
                return_exceptions=True,
            )
        finally:
            store._turn.release()
        assert all(isinstance(r, StoreBusyError) for r in results)
        assert await store.save_game(update(1, 1, "dl"))  # free again: it applies
        assert [await store.game_version(u) for u in (1, 2, 3)] == [2, 1, 1]
    finally:
        await store.close()
