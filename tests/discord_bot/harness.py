"""What the end-to-end tests share about the bot under test: the clock its service reads,
the bot and service ``launch`` starts (the fixture is in conftest.py), and readers of the
embeds the bot posted."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import discord
from fake_discord import FakeDiscord, FakeMessage, FakeUser, InteractionResult

from bot.service import GameService
from bot.store import Store

START = datetime(2026, 11, 29, 9, 30, tzinfo=UTC)
"""Where the ``clock`` fixture stands: 09:30 UTC on the daily date 2026-11-29."""


class Clock:
    """The service's clock: stands still unless the test moves it."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclass(frozen=True, slots=True)
class Running:
    """One started bot and the service (and store) it plays with."""

    bot: discord.Client
    service: GameService
    store: Store


Launch = Callable[..., Awaitable[Running]]
"""``await launch(db=None, *, sync_global=False)``: see the ``launch`` fixture."""


def description(message: FakeMessage) -> str:
    assert message.embed is not None, f"message {message.id} has no embed"
    return str(message.embed.get("description") or "")


def footer(message: FakeMessage) -> str:
    assert message.embed is not None, f"message {message.id} has no embed"
    return str((message.embed.get("footer") or {}).get("text") or "")


async def resigned(fake: FakeDiscord, user: FakeUser) -> InteractionResult:
    """``/reel resign``, answering its question with the button when it asks (a game in
    progress does): the interaction whose answer is the public board."""
    result = await fake.slash(user, "reel", sub="resign")
    message = await result.wait_message()
    if message.ephemeral and any(":sure:resign:" in c for c in message.custom_ids):
        return await fake.click(user, message, label="Resign")
    return result
