"""End-to-end tests of the games of the family on the fake Discord (issue 35): a player
chooses a game with ``/reel new variant:``, plays it by button and by command, sees it
drawn when they chose pictures, and finds its daily, stats and leaderboard apart from
Virginia Reel's."""

from __future__ import annotations

import io

from fake_discord import FakeDiscord, FakeMessage
from harness import Launch, description, private_text, public_board, resigned
from PIL import Image

from bot.discord_bot.board_pictures import PICTURE_NAME
from engine import Game, render, variant_by_code


def title(message: FakeMessage) -> str:
    return str((message.embed or {}).get("title") or "")


def text_board(message: FakeMessage) -> list[str]:
    """The lines of the monospace board inside the embed."""
    body = description(message)
    start = body.index("```") + 3
    return body[start : body.index("```", start)].strip("\n").splitlines()


async def test_a_twelve_pile_game_is_dealt_with_a_board_within_thirty_columns(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    result = await fake.slash(alice, "reel", sub="new", options={"deal": "7", "variant": "tu"})
    board = await public_board(result)
    assert title(board) == "Three Up · deal 7"
    lines = text_board(board)
    assert lines == render(Game.new(7, variant_by_code("tu"))).splitlines()
    assert max(len(line) for line in lines) <= 30
    assert f"Score {Game.new(7, variant_by_code('tu')).score}/156" in lines
    assert "score 5/156" in str((board.embed or {}).get("footer"))
    view = await running.service.show(alice.id)
    assert view.variant == "tu"

    # a move by command is a move of this game
    move = view.moves[0]
    played = await public_board(
        await fake.slash(alice, "reel", sub="move", options={"from": move.text})
    )
    assert title(played) == "Three Up · deal 7"
    assert (await running.service.show(alice.id)).move_count >= 1


async def test_the_new_game_button_deals_the_same_game_again(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    bob = fake.user("bob")
    await public_board(
        await fake.slash(bob, "reel", sub="new", options={"deal": "3", "variant": "rp"})
    )
    over = await public_board(await resigned(fake, bob))
    assert title(over) == "Royal Parade · deal 3"
    [new] = [c for c in over.custom_ids if c.startswith("reel:new:")]
    await fake.click(bob, over, new)
    assert await fake.wait_until(lambda: title(over) != "Royal Parade · deal 3")
    shown = await running.service.show(bob.id)
    assert shown.variant == "rp" and not shown.finished  # the same game, a new deal
    assert title(over).startswith("Royal Parade · deal")


async def test_a_game_chosen_over_one_in_progress_is_asked_about_then_dealt(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    carol = fake.user("alice")
    first = await public_board(await fake.slash(carol, "reel", sub="new", options={"deal": "5"}))
    view = await running.service.show(carol.id)
    await running.service.move(carol.id, view.moves[0].text, view.version)
    asked = await fake.slash(carol, "reel", sub="new", options={"variant": "bj"})
    question = await asked.wait_message()
    assert question.ephemeral
    [sure] = [c for c in question.custom_ids if ":sure:" in c]
    assert sure.endswith(":bj")
    dealt = await public_board(await fake.click(carol, question, sure))
    assert title(dealt).startswith("Blue Jacket · deal ") and dealt.id != first.id
    assert (await running.service.show(carol.id)).variant == "bj"


async def test_a_picture_player_gets_a_twelve_pile_game_drawn(
    fake: FakeDiscord, launch: Launch
) -> None:
    await launch()
    dave = fake.user("bob")
    await fake.slash(dave, "reel", sub="settings", options={"board": "picture"})
    board = await public_board(
        await fake.slash(dave, "reel", sub="new", options={"deal": "2", "variant": "bp"})
    )
    assert title(board) == "Big Parade · deal 2"
    assert [a["filename"] for a in board.attachments] == [PICTURE_NAME]
    image = Image.open(io.BytesIO(board.files[PICTURE_NAME]))
    assert image.format == "PNG" and image.width > 0


async def test_each_game_has_its_own_daily_stats_and_leaderboard(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    erin = fake.user("alice")
    daily = await (
        await fake.slash(erin, "reel", sub="daily", options={"variant": "rp"})
    ).wait_message()
    assert title(daily).startswith("Royal Parade · Daily challenge · ")
    await running.service.resign(erin.id)
    stats = await fake.slash(erin, "reel", sub="stats", options={"variant": "rp"})
    text = await private_text(stats)
    message = await stats.wait_message()
    assert title(message) == "Royal Parade · stats" and text
    board = await fake.slash(erin, "reel", sub="leaderboard", options={"variant": "rp"})
    page = await board.wait_message()
    assert title(page).startswith("Royal Parade · Daily leaderboard")
    assert f"<@{erin.id}>" in description(page)
    reel = await (await fake.slash(erin, "reel", sub="leaderboard")).wait_message()
    assert f"<@{erin.id}>" not in description(reel)  # Virginia Reel's board: not played
    practice = await fake.slash(
        erin, "reel", sub="daily", options={"date": "2020-01-01", "variant": "rp"}
    )
    assert "Virginia Reel's daily only" in await private_text(practice)
