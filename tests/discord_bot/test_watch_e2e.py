"""End-to-end tests of spectating and the daily's ghost: several players on the fake Discord.

Bob watches Alice's game with ``/reel watch``: the watch message follows her moves
(edited through the channel, coalesced), ends with her final board, and can be
stopped by the two of them only. The ghost's line comes and goes on a daily's
footer with ``/reel ghost``.
"""

from __future__ import annotations

import pytest
from fake_discord import FakeDiscord, FakeMessage, FakeUser
from harness import (
    DEAL_NUMBER,
    Launch,
    description,
    footer,
    new_game,
    private_text,
    resigned,
)

import bot.discord_bot.watching as watching_module
from bot.discord_bot.watching import watches_of
from bot.service import GameService


@pytest.fixture(autouse=True)
def quick_redraws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Watches redraw at most every 0.05 s (a test that needs a longer wait sets it)."""
    monkeypatch.setattr(watching_module, "WATCH_INTERVAL", 0.05)


def board_of(message: FakeMessage) -> str:
    """The board in a message's embed (its code block), as ``plain`` writes it."""
    return plain(description(message).split("```\n")[1].split("```")[0])


def plain(board: str) -> str:
    """A board without trailing blanks (the embed's text keeps none at its end)."""
    return "\n".join(line.rstrip() for line in board.strip("\n").splitlines())


async def some_move(service: GameService, user: FakeUser) -> str:
    choices = await service.move_choices(user.id)
    return next(c.text for c in choices if c.text != "deal")


async def watched(fake: FakeDiscord, watcher: FakeUser, player: FakeUser) -> FakeMessage:
    result = await fake.slash(watcher, "reel", sub="watch", options={"player": player})
    message = await result.wait_message()
    assert not message.ephemeral, description(message)
    return message


async def follows(fake: FakeDiscord, watch: FakeMessage, service: GameService, user: int) -> None:
    """Wait until the watch message shows the player's game as it now stands."""
    board = plain((await service.show(user)).board)
    assert await fake.wait_until(lambda: board_of(watch) == board), (
        f"the watch shows\n{board_of(watch)}\nnot\n{board}"
    )


# --------------------------------------------------------------------------- /reel watch


async def test_a_watch_follows_the_game_move_by_move_to_its_final_board(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    board = await new_game(fake, alice)
    watch = await watched(fake, bob, alice)
    assert (watch.embed or {}).get("title") == f"👀 Watching · Virginia Reel · deal {DEAL_NUMBER}"
    assert board_of(watch) == board_of(board)
    assert watch.custom_ids == [f"reelw:stop:{bob.id}:{alice.id}"]  # read-only: no moves
    assert "Live" in footer(watch)
    for _ in range(3):
        move = await some_move(running.service, alice)
        played = await fake.slash(alice, "reel", sub="move", options={"from": move})
        await played.wait_message()
        await follows(fake, watch, running.service, alice.id)
    await resigned(fake, alice)
    assert await fake.wait_until(lambda: "No longer live" in description(watch))
    assert "The game is over." in description(watch)
    assert board_of(watch) == plain((await running.service.show(alice.id)).board)
    assert watch.custom_ids == [] and "Live" not in footer(watch)
    assert watches_of(running.bot).live == {}


async def test_a_burst_of_moves_is_drawn_in_fewer_edits_the_newest_winning(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watching_module, "WATCH_INTERVAL", 2.0)
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    await new_game(fake, alice)
    watch = await watched(fake, bob, alice)
    before = len(watch.edits)
    moves = 5
    for _ in range(moves):
        await running.service.move(alice.id, await some_move(running.service, alice))
    await follows(fake, watch, running.service, alice.id)
    assert 1 <= len(watch.edits) - before < moves


async def test_a_watch_is_refused_privately_for_oneself_no_game_and_the_unwatchable(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.add_user("carol")
    me = await fake.slash(bob, "reel", sub="watch", options={"player": bob})
    assert "That's you" in await private_text(me)
    none = await fake.slash(bob, "reel", sub="watch", options={"player": carol})
    assert "no game in play" in await private_text(none)
    await new_game(fake, alice)
    watch = await watched(fake, bob, alice)
    settings = await fake.slash(alice, "reel", sub="settings", options={"watchable": False})
    await settings.wait_message()
    assert await fake.wait_until(lambda: "No longer live" in description(watch))
    assert "turned off being watched" in description(watch) and watch.custom_ids == []
    again = await fake.slash(bob, "reel", sub="watch", options={"player": alice})
    assert "chosen not to be watched" in await private_text(again)
    assert watches_of(running.bot).live == {}


async def test_only_the_watcher_or_the_player_can_stop_a_watch(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.add_user("carol")
    await new_game(fake, alice)
    watch = await watched(fake, bob, alice)
    stop = watch.custom_ids[0]
    refused = await fake.click(carol, watch, stop)
    assert "Only the one watching" in await private_text(refused)
    assert watch.custom_ids == [stop]
    await fake.click(alice, watch, stop)
    assert "Stopped by the player watched" in description(watch) and watch.custom_ids == []
    assert watches_of(running.bot).live == {}
    # Bob's second watch, stopped by him: a new move no longer reaches it.
    second = await watched(fake, bob, alice)
    await fake.click(bob, second, second.custom_ids[0])
    edits = len(second.edits)
    await running.service.move(alice.id, await some_move(running.service, alice))
    assert "Stopped by the watcher" in description(second) and len(second.edits) == edits


async def test_an_old_watch_message_after_a_restart_says_it_is_no_longer_live(
    fake: FakeDiscord, launch: Launch
) -> None:
    first = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    await new_game(fake, alice)
    watch = await watched(fake, bob, alice)
    await first.bot.close()
    await launch()  # the same database, a new bot: no watch in memory
    await fake.click(bob, watch, watch.custom_ids[0])
    assert "The bot restarted since" in description(watch) and watch.custom_ids == []


# --------------------------------------------------------------------------- /reel ghost


async def test_the_ghost_comes_and_goes_on_the_dailys_footer(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    refused = await fake.slash(bob, "reel", sub="ghost")
    assert "no game in progress" in (await private_text(refused)).lower()
    # Alice's daily, a few moves then resigned: the day's best run.
    await (await fake.slash(alice, "reel", sub="daily")).wait_message()
    for _ in range(4):
        await running.service.move(alice.id, await some_move(running.service, alice))
    await resigned(fake, alice)
    daily = await (await fake.slash(bob, "reel", sub="daily")).wait_message()
    assert "Ghost" not in footer(daily)  # off by default
    on = await (await fake.slash(bob, "reel", sub="ghost")).wait_message()
    assert not on.ephemeral and "Ghost on" in description(on)
    assert "👻 Ghost: the day's best run had" in footer(on) and "at move 0." in footer(on)
    move = await some_move(running.service, bob)
    played = await (
        await fake.slash(bob, "reel", sub="move", options={"from": move})
    ).wait_message()
    assert "at move 1." in footer(played)
    off = await (await fake.slash(bob, "reel", sub="ghost", options={"on": False})).wait_message()
    assert "Ghost" not in footer(off) and "Ghost off" in description(off)
