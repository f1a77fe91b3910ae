"""What the end-to-end tests share about the bot under test: the clock its service reads,
the bot and service ``launch`` starts (the fixture is in conftest.py), and readers of the
embeds the bot posted."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import discord
from fake_discord import CHANNEL_MESSAGE, FakeDiscord, FakeMessage, FakeUser, InteractionResult

from bot.service import GameService
from bot.store import Store
from engine import VARIANTS

DEAL_NUMBER = 16  # a deal the solver wins in well under a second

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


def is_board(message: FakeMessage) -> bool:
    title = (message.embed or {}).get("title") or ""
    return any(str(title).startswith(f"{game.name} · deal") for game in VARIANTS.values())


async def public_board(result: InteractionResult) -> FakeMessage:
    """The public board message a slash command answered with (fails on a refusal)."""
    message = await result.wait_message()
    assert not message.ephemeral and is_board(message), (
        f"expected a public board, got {message.embed!r} (ephemeral={message.ephemeral})"
    )
    return message


async def private_message(result: InteractionResult) -> FakeMessage:
    """The ephemeral answer to an interaction: its reply, or, when a slow command was
    deferred publicly ("thinking…", filled with a line and removed), its follow-up."""
    await result.wait_response()
    if result.callback_type == CHANNEL_MESSAGE:
        message = await result.wait_message()
    else:
        [message] = await result.wait_followups(1)
    assert message.ephemeral, f"expected an ephemeral answer, got {message.to_dict()!r}"
    return message


async def private_text(result: InteractionResult) -> str:
    """The text of the ephemeral answer to an interaction (its reply or its first follow-up)."""
    return description(await private_message(result))


async def new_game(
    fake: FakeDiscord, user: FakeUser, deal: int = DEAL_NUMBER, *, dm: bool = False
) -> FakeMessage:
    result = await fake.slash(user, "reel", sub="new", options={"deal": str(deal)}, dm=dm)
    return await public_board(result)
