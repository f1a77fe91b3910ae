"""End-to-end tests of the picture board (docs/pictures.md) on the fake Discord: a player
who sets ``/reel settings board:picture`` gets boards drawn as a PNG attached to the board
message and shown in its embed; a click redraws it with the new position's picture; back
on text, the picture goes. A new player's board is text, as the design asks."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from fake_discord import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeMessage,
)
from harness import DEAL_NUMBER, Launch, description, new_game, private_text, public_board
from PIL import Image

import bot.discord_bot.replies as replies_module
from bot.discord_bot.board_pictures import PICTURE_NAME, board_picture
from bot.pictures import BOARDS, board_title
from bot.service import GameService
from engine import variant_by_code


def picture(message: FakeMessage) -> bytes:
    """The board picture the message carries (its one attachment), checked to be a PNG
    that the embed shows."""
    assert [a["filename"] for a in message.attachments] == [PICTURE_NAME]
    assert (message.embed or {}).get("image", {}).get("url") == f"attachment://{PICTURE_NAME}"
    png = message.files[PICTURE_NAME]
    assert Image.open(io.BytesIO(png)).format == "PNG"
    return png


async def drawn_now(service: GameService, user_id: int) -> bytes:
    """The picture of the player's game as it stands."""
    view = await service.show(user_id)
    title = board_title(view.deal_number, view.move_count, variant_by_code(view.variant))
    return BOARDS.png(view.position, title)


def deal_button(message: FakeMessage) -> str:
    return next(c for c in message.custom_ids if c.startswith("reel:deal:"))


async def test_a_new_players_board_is_text_with_no_picture(
    fake: FakeDiscord, launch: Launch
) -> None:
    await launch()
    board = await new_game(fake, fake.user("alice"))
    assert "```" in description(board)
    assert board.attachments == [] and board.files == {}
    assert "image" not in (board.embed or {})


async def test_the_picture_setting_draws_the_board_and_a_click_redraws_it(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    result = await fake.slash(alice, "reel", sub="settings", options={"board": "picture"})
    assert result.callback_type == CHANNEL_MESSAGE and result.ephemeral
    assert "**Board:** picture" in await private_text(result)
    assert (await running.service.get_settings(alice.id)).picture

    board = await new_game(fake, alice)
    first = picture(board)
    assert first == await drawn_now(running.service, alice.id)
    assert "```" not in description(board)  # the picture is the board: no text copy
    assert f"deal {DEAL_NUMBER}" in str(board.embed.get("title") if board.embed else "")

    click = await fake.click(alice, board, deal_button(board))
    assert click.callback_type == UPDATE_MESSAGE
    assert await fake.wait_until(lambda: board.version >= 1)
    second = picture(board)  # one attachment still: the old picture replaced, not added
    assert second != first
    assert second == await drawn_now(running.service, alice.id)
    assert (await running.service.show(alice.id)).move_count == 1

    hits = BOARDS.hits
    await fake.click(alice, board, label="Refresh")
    assert await fake.wait_until(lambda: board.version >= 2)
    assert picture(board) == second and BOARDS.hits > hits  # the same position: not redrawn


async def test_back_on_text_the_next_redraw_drops_the_picture(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    chosen = await fake.slash(alice, "reel", sub="settings", options={"board": "picture"})
    await chosen.wait_message()
    board = await new_game(fake, alice)
    assert picture(board)
    back = await fake.slash(alice, "reel", sub="settings", options={"board": "text"})
    assert "**Board:** text" in await private_text(back)
    assert not (await running.service.get_settings(alice.id)).picture

    await fake.click(alice, board, label="Refresh")
    assert await fake.wait_until(lambda: board.version >= 1)
    assert board.attachments == [] and board.files == {}
    assert "image" not in (board.embed or {}) and "```" in description(board)


async def test_the_picture_and_its_alt_text_name_the_game_unless_virginia_reel(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    chosen = await fake.slash(alice, "reel", sub="settings", options={"board": "picture"})
    await chosen.wait_message()
    await new_game(fake, alice)
    reel = await board_picture(await running.service.show(alice.id))
    assert reel is not None and reel.description == f"The board of deal {DEAL_NUMBER} at move 0"

    result = await fake.slash(alice, "reel", sub="new", options={"deal": "7", "variant": "tu"})
    board = await public_board(result)
    three_up = await board_picture(await running.service.show(alice.id))
    assert three_up is not None and three_up.description == "The board of Three Up deal 7 at move 0"
    # the picture sent is the one titled with the game's name
    view = await running.service.show(alice.id)
    assert picture(board) == BOARDS.png(view.position, "Three Up · deal 7 · move 0")


def slowed(monkeypatch: pytest.MonkeyPatch, service: GameService, name: str) -> None:
    """Make ``service.<name>`` slow enough to be deferred (with a short deferral limit)."""
    monkeypatch.setattr(replies_module, "DEFER_AFTER", 0.01)
    call = getattr(service, name)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.2)
        return await call(*args, **kwargs)

    monkeypatch.setattr(service, name, slow)


async def test_a_slow_answer_fills_in_its_deferred_board_with_the_picture(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Deferred answers are filled in through the webhook (PATCH of the original
    # response), a path of its own: a slash command's "thinking…", a click's update.
    running = await launch()
    alice = fake.user("alice")
    chosen = await fake.slash(alice, "reel", sub="settings", options={"board": "picture"})
    await chosen.wait_message()
    slowed(monkeypatch, running.service, "new_game")
    slowed(monkeypatch, running.service, "deal")

    result = await fake.slash(alice, "reel", sub="new", options={"deal": str(DEAL_NUMBER)})
    assert result.callback_type == DEFERRED_CHANNEL_MESSAGE
    board = await result.wait_message()
    assert await fake.wait_until(lambda: not board.loading and bool(board.files))
    assert picture(board) == await drawn_now(running.service, alice.id)

    before = picture(board)
    click = await fake.click(alice, board, deal_button(board))
    assert click.callback_type == DEFERRED_UPDATE_MESSAGE
    assert await fake.wait_until(lambda: board.files.get(PICTURE_NAME, before) != before, timeout=5)
    assert picture(board) == await drawn_now(running.service, alice.id)
    assert (await running.service.show(alice.id)).move_count == 1
