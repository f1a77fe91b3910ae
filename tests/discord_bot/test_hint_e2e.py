"""End-to-end tests of ``/reel hint`` on the fake Discord: a private answer after a private
defer, the solver run in the service's process pool, and the assisted note for a daily."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest
from fake_discord import DEFERRED_CHANNEL_MESSAGE, FakeDiscord, FakeMessage

from bot.discord_bot.app import create_bot
from bot.service import GameService
from bot.store import Store

NO_PINGS = {"parse": []}


@pytest.fixture
async def service(
    fake_discord: FakeDiscord, start_bot: Any, tmp_path: Path
) -> AsyncIterator[GameService]:
    """A bot on the fake Discord over a real service (with its process pool) and file."""
    store = await Store.open(tmp_path / "reel.db")
    service = GameService(store, clock=lambda: datetime(2026, 11, 29, 9, 30, tzinfo=UTC))
    bot: discord.Client = create_bot(
        service, dev_guild_id=fake_discord.guild.id, guild_ready_timeout=0.1
    )
    await start_bot(bot)
    yield service
    await bot.close()
    await service.close()


def text(message: FakeMessage) -> str:
    assert message.embed is not None
    return str(message.embed.get("description") or "")


async def private_hint(fake: FakeDiscord, name: str) -> FakeMessage:
    result = await fake.slash(fake.user(name), "reel", sub="hint")
    assert result.callback_type == DEFERRED_CHANNEL_MESSAGE  # deferred at once, privately
    message = await result.wait_message()
    assert message.ephemeral, message.to_dict()
    followup = await result.wait_followups()
    assert followup[0].id == message.id  # the follow-up filled in the "thinking" message
    return message


async def test_reel_hint_answers_privately_with_a_move_of_a_winning_line(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    board = await fake.slash(alice, "reel", sub="new", options={"deal": "16"})
    await board.wait_message()
    message = await private_hint(fake, "alice")
    assert message.embed is not None
    assert message.embed["title"] == "💡 Hint: a winning line"
    assert "it starts a winning line" in text(message)
    [field] = message.embed["fields"]
    played = re.fullmatch(r"`/reel move from:([A-Z0-9]+ [A-Z0-9]+|deal)`", field["value"])
    assert played is not None, field
    assert "assisted" not in text(message)  # not a daily
    view = await service.show(alice.id)
    assert view.assisted and view.move_count == 0
    # The suggested move plays.
    moved = await fake.slash(alice, "reel", sub="move", options={"from": played.group(1)})
    assert "· moves 1 ·" in str((await moved.wait_message()).embed)
    # No public message came of the hint.
    public = [m for m in fake.channel_messages() if not m.ephemeral]
    assert public and not any("Hint" in str((m.embed or {}).get("title")) for m in public)


async def test_reel_hint_on_a_daily_says_it_is_now_assisted(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    fake = fake_discord
    await (await fake.slash(fake.user("bob"), "reel", sub="daily")).wait_message()
    message = await private_hint(fake, "bob")
    assert "This daily is now marked as assisted on the leaderboard." in text(message)


async def test_reel_hint_without_a_game_says_how_to_start_one(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    message = await private_hint(fake_discord, "alice")
    assert "You have no game in progress" in text(message)
