"""A web board open on one process of a cluster follows the game when it is played through
another process on the same PostgreSQL database (docs/scaling.md): the board's server
hears the other process's change and sends the new board, as it does for a chat move in
its own process (test_api.py)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
from webserver import DEAL, Serve

from bot.service import LOCAL_USER_ID, GameService
from bot.store.open import open_store
from tests.bot.pg_server import PgServer

pytestmark = pytest.mark.postgres


@pytest.fixture
async def pg_url(pg_server: PgServer) -> AsyncIterator[str]:
    url = await pg_server.fresh_database()
    yield url
    await pg_server.drop_database(url)


@pytest.fixture
async def service(pg_url: str) -> AsyncIterator[GameService]:
    """The web board's process (its own store), in place of conftest.py's SQLite one."""
    web_service = GameService(await open_store(pg_url), rng=random.Random(1))
    yield web_service
    await web_service.close()


@pytest.fixture
async def other(pg_url: str) -> AsyncIterator[GameService]:
    """Another process of the cluster: its own service and store, the same database."""
    other_service = GameService(await open_store(pg_url), rng=random.Random(2))
    yield other_service
    await other_service.close()


async def test_a_move_made_through_another_process_reaches_an_open_board_within_a_second(
    serve: Serve, service: GameService, other: GameService
) -> None:
    changes = getattr(service.store, "changes", None)
    assert changes is not None  # PostgreSQL's
    for _ in range(500):  # its notification connection up (a process's first moments)
        if changes.connected:
            break
        await asyncio.sleep(0.01)
    view = await other.new_game(LOCAL_USER_ID, None, DEAL)
    page = await (await serve()).page()
    first = await page.next("board")
    assert first["version"] == view.version
    moved = await other.deal(LOCAL_USER_ID, view.version)  # a chat button, on another shard
    pushed = await page.next("board", timeout=1.0)
    assert pushed["version"] == moved.version and pushed["board"]["position"] == moved.position
