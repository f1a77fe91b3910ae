"""Refusals answered in one place, over the fake Discord: a ``ServiceError`` raised in a
slash command (``commands.on_tree_error``, unwrapping discord.py's
``CommandInvokeError``) or in a click (``replies.run_click``) reaches its player once,
privately, through whichever path the interaction still has open, metered as refused
and logged as no failure; a game changed under the call is shown as it stands; and an
option that is no value (``options.py``) is refused before its handler runs."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from fake_discord import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeMessage,
)
from harness import Launch, Running, description, footer, new_game, public_board

import bot.discord_bot.replies as replies_module
from bot.discord_bot.app import ReelBot
from bot.discord_bot.items import UNEXPECTED
from bot.discord_bot.options import BAD_DATE, BAD_DEAL, BAD_GAME
from bot.discord_bot.races import STALE_RACE_BOARD
from bot.ops.metrics import samples
from bot.service import StaleVersionError, StorageError
from bot.service.errors import STORAGE_MESSAGES

BUSY = STORAGE_MESSAGES["busy"]


def outcomes(running: Running, command: str) -> dict[str, float]:
    """How the bot metered ``command``'s interactions so far, by outcome."""
    bot = running.bot
    assert isinstance(bot, ReelBot)
    return {
        labels["outcome"]: value
        for name, labels, value in samples(bot.metrics.registry)
        if name == "reel_interactions_total" and labels.get("command") == command and value
    }


async def metered(fake: FakeDiscord, running: Running, command: str, **wanted: float) -> None:
    """Wait for the interactions of ``command`` to be metered as ``wanted`` (they are when
    their task ends, just after the answer)."""
    await fake.wait_until(lambda: outcomes(running, command) == wanted)
    assert outcomes(running, command) == wanted


def busy(*args: Any, **kwargs: Any) -> Any:
    raise StorageError(reason="busy")


async def test_a_refusal_in_a_command_reaches_its_player_once_privately_and_is_metered(
    fake: FakeDiscord, launch: Launch, caplog: pytest.LogCaptureFixture
) -> None:
    running = await launch()
    alice = fake.user("alice")
    result = await fake.slash(alice, "reel", sub="show")  # no game: the service refuses
    assert result.callback_type == CHANNEL_MESSAGE
    message = await result.wait_message()
    assert message.ephemeral
    assert description(message) == "You have no game in progress. Start one with /reel new."
    await metered(fake, running, "reel show", refused=1)
    assert result.followups == []  # said once
    assert [m for m in fake.channel_messages() if not m.ephemeral] == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_refusal_after_a_command_was_deferred_is_a_private_follow_up(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    monkeypatch.setattr(replies_module, "DEFER_AFTER", 0.01)

    async def slow_and_busy(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.2)  # deferred meanwhile, publicly ("thinking…")
        busy()

    monkeypatch.setattr(running.service, "stats", slow_and_busy)
    result = await fake.slash(alice, "reel", sub="stats")
    assert result.callback_type == DEFERRED_CHANNEL_MESSAGE
    [answer] = await result.wait_followups(1)
    assert answer.ephemeral and description(answer) == BUSY
    placeholder = result.message
    assert placeholder is not None
    assert await fake.wait_until(lambda: placeholder.deleted)  # no public trace left
    await metered(fake, running, "reel stats", refused=1)
    assert len(result.followups) == 1


async def test_a_refusal_in_a_click_reaches_its_clicker_once_privately_and_is_metered(
    fake: FakeDiscord,
    launch: Launch,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    before = board.version
    monkeypatch.setattr(running.service, "show", busy)
    click = await fake.click(alice, board, label="Refresh")
    assert click.callback_type == CHANNEL_MESSAGE
    message = await click.wait_message()
    assert message.ephemeral and description(message) == BUSY
    await metered(fake, running, "button reel:refresh", refused=1)
    assert board.version == before and click.followups == []  # the board as it was
    assert "failed" not in caplog.text  # a refusal, not a failure


async def test_a_game_changed_under_a_command_is_shown_as_it_stands_and_why(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    current = await running.service.show(alice.id)

    async def stale(*args: Any, **kwargs: Any) -> Any:
        raise StaleVersionError()  # as when another process saved the game first

    monkeypatch.setattr(running.service, "deal", stale)
    result = await fake.slash(alice, "reel", sub="deal")
    board = await public_board(result)  # the game as it stands, nothing dealt
    [notice] = await result.wait_followups(1)
    assert notice.ephemeral and "out of date" in description(notice)
    assert f"Deal {current.deal_number} · moves 0" in footer(board)
    assert (await running.service.show(alice.id)).version == current.version
    await metered(fake, running, "reel deal", ok=1)  # answered with the board, as before


async def test_a_game_changed_under_a_command_and_then_unreadable_says_why_it_isnt_shown(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)

    async def stale(*args: Any, **kwargs: Any) -> Any:
        raise StaleVersionError()

    monkeypatch.setattr(running.service, "deal", stale)
    monkeypatch.setattr(running.service, "show", busy)  # the redraw's read is refused too
    result = await fake.slash(alice, "reel", sub="deal")
    message = await result.wait_message()
    assert message.ephemeral and description(message) == BUSY  # that refusal, once
    await metered(fake, running, "reel deal", refused=1)
    assert result.followups == []


async def test_a_game_changed_under_a_command_whose_redraw_fails_still_answers_its_player(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)

    async def stale(*args: Any, **kwargs: Any) -> Any:
        raise StaleVersionError()

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in the redraw")

    monkeypatch.setattr(running.service, "deal", stale)
    monkeypatch.setattr(running.service, "show", broken)  # the redraw fails unexpectedly
    result = await fake.slash(alice, "reel", sub="deal")
    message = await result.wait_message()
    assert message.ephemeral and description(message) == UNEXPECTED
    await metered(fake, running, "reel deal", error=1)


async def test_a_click_on_an_out_of_date_race_board_redraws_it_and_says_why(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    opened = await fake.slash(alice, "reel", sub="race", options={"deal": "16"})
    lobby = await opened.wait_message()
    await fake.click(bob, lobby, label="Join")
    start = await fake.click(alice, lobby, label="Start (host)")
    old: FakeMessage = await start.wait_message()
    assert old.ephemeral and str(old.embed and old.embed.get("title")).startswith("Race ")
    dealt = await fake.slash(alice, "reel", sub="deal")  # played on the race game
    newer = await dealt.wait_message()
    assert newer.ephemeral and newer is not old

    click = await fake.click(alice, old, label="Deal")  # the board before that deal
    assert click.callback_type == UPDATE_MESSAGE
    [notice] = await click.wait_followups(1)
    assert notice.ephemeral and description(notice) == STALE_RACE_BOARD
    assert footer(old) == footer(newer)  # redrawn as the race game stands: one deal
    assert old.custom_ids == newer.custom_ids
    await metered(fake, running, "button race:deal", ok=1)


@pytest.mark.parametrize(
    ("sub", "options", "sentence"),
    [
        ("new", {"deal": "sixteen"}, BAD_DEAL),
        ("race", {"deal": "-5"}, BAD_DEAL),
        ("daily", {"date": "29/11/2026"}, BAD_DATE),
        ("leaderboard", {"date": "yesterday"}, BAD_DATE),
        ("replay", {"date": "2026-11-31"}, BAD_DATE),
        ("replay", {"game": "the last one"}, BAD_GAME),
    ],
)
async def test_an_option_that_is_no_value_is_refused_before_its_command_runs(
    fake: FakeDiscord, launch: Launch, sub: str, options: dict[str, str], sentence: str
) -> None:
    running = await launch()
    alice = fake.user("alice")
    result = await fake.slash(alice, "reel", sub=sub, options=options)
    assert result.callback_type == CHANNEL_MESSAGE
    message = await result.wait_message()
    assert message.ephemeral and description(message) == sentence
    await metered(fake, running, f"reel {sub}", refused=1)
    assert await running.store.load_game(alice.id) is None  # nothing dealt
    assert [m for m in fake.channel_messages() if not m.ephemeral] == []  # nor opened
