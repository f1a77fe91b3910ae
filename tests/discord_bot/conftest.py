"""Fixtures for end-to-end Discord tests: a fake Discord, and real bots started against it.

``fake_discord`` starts the fake on 127.0.0.1, points discord.py at it, and at teardown
fails the test if the bot broke any of Discord's rules. ``start_bot`` starts a given
bot object (``await start_bot(bot)`` returns once it is ready) and closes every bot it
started at teardown, before the fake stops.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import date
from pathlib import Path

import discord
import pytest

# Tests run with --import-mode=importlib: make `import fake_discord` work from test files.
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from fake_discord import FakeDiscord  # noqa: E402

from bot.daily import DailyDeal, daily_start_number  # noqa: E402
from bot.service import GameService  # noqa: E402

_REAL_FIND_DAILY = GameService._find_daily

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


async def _quick_daily(self: GameService, day: date) -> DailyDeal:
    """The daily without the proof search: the date's starting number, unproven."""
    return DailyDeal(day, daily_start_number(day), None, None)


@pytest.fixture(autouse=True)
def quick_daily_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every service in these tests skips the daily's proof search (about a second a date,
    in a worker process): the daily is the date's starting number, with no par. Tests of the
    real search ask for ``real_daily_search``; tests wanting another deal patch it again."""
    monkeypatch.setattr(GameService, "_find_daily", _quick_daily)


@pytest.fixture
def real_daily_search(quick_daily_search: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo ``quick_daily_search``: the daily is found by the solver in the process pool."""
    monkeypatch.setattr(GameService, "_find_daily", _REAL_FIND_DAILY)
