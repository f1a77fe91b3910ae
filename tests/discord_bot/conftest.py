"""Fixtures for end-to-end Discord tests: a fake Discord, and real bots started against it.

``fake_discord`` (also ``fake``) starts the fake on 127.0.0.1, points discord.py at it,
and at teardown fails the test if the bot broke any of Discord's rules. ``start_bot``
starts a given bot object (``await start_bot(bot)`` returns once it is ready) and closes
every bot it started at teardown, before the fake stops. ``launch`` builds the Reel bot
itself over a store and service on ``tmp_path`` and starts it; its service reads the
``clock`` fixture and its leaderboards show ``page_size`` rows (a test module overrides
either fixture where it needs another).
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import discord
import pytest

# Tests run with --import-mode=importlib: make `import fake_discord` (and `harness`) work.
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from fake_discord import FakeDiscord  # noqa: E402
from harness import Clock, Launch, Running  # noqa: E402

from bot.discord_bot.app import create_bot  # noqa: E402
from bot.discord_bot.replies import DEFAULT_PAGE_SIZE  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.service.cooldown import Cooldown  # noqa: E402
from bot.store import Store  # noqa: E402

StartBot = Callable[..., Awaitable[discord.Client]]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord with discord.py pointed at it; no violations allowed."""
    fake = FakeDiscord()
    async with fake:
        with fake.patched():
            yield fake
    fake.assert_no_violations()


@pytest.fixture
async def start_bot(fake_discord: FakeDiscord) -> AsyncIterator[StartBot]:
    """``await start_bot(bot, token="any-token")``: start a bot on the fake, wait until ready."""
    async with contextlib.AsyncExitStack() as stack:

        async def start(bot: discord.Client, token: str = "any-token") -> discord.Client:
            return await stack.enter_async_context(fake_discord.running(bot, token))

        yield start


@pytest.fixture
def fake(fake_discord: FakeDiscord) -> FakeDiscord:
    return fake_discord


@pytest.fixture
def clock() -> Clock:
    """The clock of the services ``launch`` starts: 09:30 UTC on 2026-11-29, standing still."""
    return Clock()


@pytest.fixture
def page_size() -> int:
    """Rows on a leaderboard page of the bots ``launch`` starts."""
    return DEFAULT_PAGE_SIZE


@pytest.fixture
async def launch(
    fake_discord: FakeDiscord, start_bot: StartBot, tmp_path: Path, clock: Clock, page_size: int
) -> AsyncIterator[Launch]:
    """``await launch()``: a new Store, GameService and bot on ``tmp_path/reel.db``, started.

    ``db`` names another database file (or the same one again, for a restart).
    ``sync_global=True`` also publishes the commands globally (``reel bot --sync-global``),
    which DMs need: commands synced to the development server show only there.
    ``rng``: the service's generator of random deal numbers.
    ``cooldown``: the per-user limit on actions; none by default, since tests play at
    machine speed (``test_cooldown_e2e.py`` gives the bot's own).

    Every bot is closed before its service (and store) at teardown.
    """
    started: list[Running] = []

    async def start(
        db: Path | None = None,
        *,
        sync_global: bool = False,
        rng: random.Random | None = None,
        cooldown: Cooldown | None = None,
    ) -> Running:
        store = await Store.open(db or tmp_path / "reel.db")
        service = GameService(store, clock=clock, rng=rng)
        bot = create_bot(
            service,
            dev_guild_id=fake_discord.guild.id,
            sync_global=sync_global,
            leaderboard_page_size=page_size,
            cooldown=cooldown,
            guild_ready_timeout=0.1,
        )
        running = Running(bot, service, store)
        started.append(running)
        await start_bot(bot)
        return running

    yield start
    for running in started:
        if not running.bot.is_closed():
            await running.bot.close()
    for running in started:
        await running.service.close()
