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
from pathlib import Path

import discord
import pytest

# Tests run with --import-mode=importlib: make `import fake_discord` work from test files.
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from fake_discord import FakeDiscord  # noqa: E402

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
