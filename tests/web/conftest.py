"""Fixtures for the web board's tests: a service on a fresh SQLite file, and the web
server over it on 127.0.0.1 (``serve``), with the sessions and cooldown a test asks for."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

# Tests run with --import-mode=importlib: make `import pages` work from test files.
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from webserver import Serve, Served  # noqa: E402

from bot.service import LOCAL_USER_ID, GameService  # noqa: E402
from bot.service.cooldown import Cooldown  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.web import Sessions  # noqa: E402
from bot.web.local import bound_port, start  # noqa: E402


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await Store.open(tmp_path / "reel.db")
    service = GameService(store)
    yield service
    await service.close()


@pytest.fixture
async def serve(service: GameService) -> AsyncIterator[Serve]:
    """``await serve(local_user=LOCAL_USER_ID, cooldown=None)``: the web server over
    ``service`` on a free port of 127.0.0.1."""
    started: list[Served] = []

    async def start_server(
        local_user: int | None = LOCAL_USER_ID, cooldown: Cooldown | None = None
    ) -> Served:
        sessions = Sessions(local_user)
        runner = await start(service, sessions, cooldown, "127.0.0.1", 0)
        http = aiohttp.ClientSession()
        served = Served(service, sessions, runner, http, f"http://127.0.0.1:{bound_port(runner)}")
        started.append(served)
        return served

    yield start_server
    for served in started:
        for session in served.clients:
            await session.close()
        await served.http.close()
        await served.runner.cleanup()
