"""``reel db copy SRC DST``: a bot's database moved SQLite -> PostgreSQL -> SQLite, every
row equal (counts and checksum on both sides), ids kept, and a non-empty target refused."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from pg_server import PgServer

from bot.cli import main
from bot.service import GameService
from bot.store import StoreError
from bot.store.copy import TABLES, CopyError, copy_database, database_checksum
from bot.store.open import open_store

pytestmark = pytest.mark.postgres
HOST, BOB, CAROL = 11, 12, 13
GUILD, CHANNEL = 555, 777


async def fill(target: str, clock: Any) -> dict[int, Any]:
    """A database with something in every table; each player's board as shown."""
    service = GameService(await open_store(target), clock=clock, rng=random.Random(5))
    try:
        await service.update_settings(HOST, symbols=False, reminders=True)
        await service.new_game(HOST, GUILD, 28)
        await service.move(HOST, "r6 ace")
        await service.new_game(BOB, GUILD, 29)
        await service.resign(BOB)
        await service.new_game(BOB, GUILD, 30)
        await service.daily(CAROL, GUILD)
        await service.move(CAROL, "deal")
        race = await service.races.open(HOST, GUILD, CHANNEL, 28, limit_minutes=10, capacity=4)
        await service.races.join(race.race_id, BOB)
        await service.races.start(race.race_id, HOST)
        await service.races.play(race.race_id, BOB, "deal")
        return {user: await service.show(user) for user in (HOST, BOB, CAROL)}
    finally:
        await service.close()


async def boards(target: str, clock: Any) -> dict[int, Any]:
    service = GameService(await open_store(target), clock=clock)
    try:
        return {user: await service.show(user) for user in (HOST, BOB, CAROL)}
    finally:
        await service.close()


async def test_a_database_goes_to_postgresql_and_back_unchanged(
    tmp_path: Path, pg_server: PgServer, clock: Any
) -> None:
    source = str(tmp_path / "old.db")
    shown = await fill(source, clock)
    url = await pg_server.fresh_database(migrated=False)  # a new, empty database
    back = str(tmp_path / "back.db")
    try:
        there = await copy_database(source, url)
        assert there.rows["finished_games"] == 1 and there.rows["racers"] == 2
        assert all(there.rows[t.name] > 0 for t in TABLES), there.rows
        again = await copy_database(url, back)
        assert again == there == await database_checksum(source) == await database_checksum(back)
        assert await boards(url, clock) == shown  # the bot on PostgreSQL sees the same games
        assert await boards(back, clock) == shown
        async with await open_store(url) as store:
            (old,) = await store.finished_games()
            assert old.id is not None
            key = await store.races.racer_key(1, BOB)
            assert key is not None and await store.races.racer_by_key(key) is not None
            await store.import_results([])  # still writable
        service = GameService(await open_store(url), clock=clock)
        try:  # a game recorded after the move gets the next id, not a copied one's
            await service.resign(HOST)
            assert [g.id for g in await service.store.finished_games()] == [old.id, old.id + 1]
        finally:
            await service.close()
    finally:
        await pg_server.drop_database(url)


async def test_a_copy_into_a_database_in_use_is_refused_and_changes_nothing(
    tmp_path: Path, pg_server: PgServer, clock: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(tmp_path / "old.db")
    await fill(source, clock)
    url = await pg_server.fresh_database()
    try:
        assert await asyncio.to_thread(main, ["db", "copy", source, url]) == 0
        out = capsys.readouterr().out
        assert "finished_games" in out and "Verified" in out
        before = await database_checksum(url)
        assert await asyncio.to_thread(main, ["db", "copy", source, url]) == 1
        err = capsys.readouterr().err
        assert "is not empty" in err and "current_games" in err
        assert await database_checksum(url) == before
        with pytest.raises(CopyError, match="same file"):
            await copy_database(source, source)
        with pytest.raises(CopyError, match="no such database"):
            await copy_database(str(tmp_path / "missing.db"), str(tmp_path / "new.db"))
    finally:
        await pg_server.drop_database(url)


@pytest.mark.parametrize("url", ["mysql://x", "sqlite:///x.db", "MySQL://user:pw@host/db"])
async def test_a_url_of_another_database_is_refused_and_nothing_is_made(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    clock: Any,
    capsys: pytest.CaptureFixture[str],
    url: str,
) -> None:
    source = str(tmp_path / "reel.db")
    await fill(source, clock)
    before = await database_checksum(source)
    monkeypatch.chdir(tmp_path)  # where "mysql://x" was taken for the path ./mysql:/x
    made = sorted(tmp_path.iterdir())
    for args in (["db", "copy", source, url], ["db", "copy", url, source]):
        assert await asyncio.to_thread(main, args) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"reel db copy: {url!r} is neither a SQLite file's path nor a ")
        assert "postgresql:// URL" in err and err.count("\n") == 1
    assert "Verified" not in capsys.readouterr().out
    assert sorted(tmp_path.iterdir()) == made
    assert await database_checksum(source) == before
    with pytest.raises(StoreError, match="neither a SQLite file's path"):
        await open_store(url)  # nor opened by anything else as a file
    assert sorted(tmp_path.iterdir()) == made
