"""End-to-end tests of ``/reel replay`` on the fake Discord: a finished game stepped
through with all four buttons, each board checked against the stored moves replayed
here with the engine; the solver's track; and a daily kept from others until its day
is over (the ``clock`` fixture decides the day)."""

from __future__ import annotations

from typing import Any

from fake_discord import FakeDiscord, FakeMessage, FakeUser
from harness import (
    DEAL_NUMBER,
    Clock,
    Launch,
    description,
    footer,
    private_message,
    private_text,
)

from bot.service import GameService
from bot.service.jobs import verdict_job
from bot.service.replays import scores_along
from bot.store import FinishedGame
from engine import Game, play_line, render

PLAYED = 6  # moves Alice plays before she resigns


def board_of(message: FakeMessage) -> str:
    return plain(description(message).split("```\n")[1].split("```")[0])


def plain(board: str) -> str:
    return "\n".join(line.rstrip() for line in board.strip("\n").splitlines())


def stored_board(game: FinishedGame, move: int) -> str:
    """``game`` after ``move`` moves: its stored move list replayed here, move by move."""
    board = Game.new(game.deal_number)
    for token in game.moves.split(";")[:move]:
        play_line(board, token)
    return plain(render(board, True))


def button(message: FakeMessage, label: str) -> dict[str, Any]:
    return message.component(label=label)


async def play_and_resign(service: GameService, user: FakeUser, moves: int = PLAYED) -> None:
    for _ in range(moves):
        choices = await service.move_choices(user.id)
        move = next(c.text for c in choices if c.text != "deal")
        await service.move(user.id, move)
    await service.resign(user.id)


async def last_finished(service: GameService, user: FakeUser) -> FinishedGame:
    return (await service.store.finished_games(user.id))[-1]


async def test_a_replay_stepped_through_with_all_four_buttons_shows_the_stored_moves(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    await running.service.new_game(alice.id, None, DEAL_NUMBER)
    await play_and_resign(running.service, alice)
    game = await last_finished(running.service, alice)
    assert game.move_count == PLAYED

    replay = await (await fake.slash(alice, "reel", sub="replay")).wait_message()
    assert not replay.ephemeral
    assert (replay.embed or {}).get("title") == f"Replay · deal {DEAL_NUMBER}"
    assert board_of(replay) == stored_board(game, 0)
    assert f"Move 0 of {PLAYED}" in description(replay)
    assert button(replay, "⏮ First").get("disabled") and button(replay, "◀ Back").get("disabled")
    # The solver's track: its winning line of the deal, cards home at the same move.
    verdict, line = verdict_job(DEAL_NUMBER)
    assert verdict == "won"
    solver = scores_along(DEAL_NUMBER, "vr", line)

    async def step(label: str, move: int) -> None:
        await fake.click(alice, replay, label=label)
        assert board_of(replay) == stored_board(game, move), f"{label} to move {move}"
        assert f"Move {move} of {PLAYED}" in description(replay)
        assert f"move {move}/{PLAYED}" in footer(replay)
        assert f"You at move {move}: " in description(replay)
        assert f"the solver: {solver[move]}" in description(replay)

    await step("Forward ▶", 1)
    await step("Forward ▶", 2)
    await step("◀ Back", 1)
    await step("Last ⏭", PLAYED)
    assert button(replay, "Forward ▶").get("disabled") and button(replay, "Last ⏭").get("disabled")
    await step("◀ Back", PLAYED - 1)
    await step("⏮ First", 0)

    # Bob may replay it too (not a daily), but not step Alice's message.
    theirs = await fake.click(bob, replay, label="Forward ▶")
    assert "someone else's" in await private_text(theirs)
    assert board_of(replay) == stored_board(game, 0)
    opened = await fake.slash(
        bob, "reel", sub="replay", options={"player": alice, "game": str(game.id), "move": 3}
    )
    bobs = await opened.wait_message()
    assert board_of(bobs) == stored_board(game, 3) and f"<@{alice.id}> at move 3" in (
        description(bobs)
    )


async def test_replay_offers_the_players_games_and_refuses_what_it_cannot_show(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    none = await fake.slash(bob, "reel", sub="replay")
    assert "no finished game to replay yet" in await private_text(none)
    bad = await fake.slash(bob, "reel", sub="replay", options={"date": "yesterday"})
    assert "YYYY-MM-DD" in await private_text(bad)
    await running.service.new_game(alice.id, None, DEAL_NUMBER)
    await play_and_resign(running.service, alice, 2)
    game = await last_finished(running.service, alice)
    choices = await fake.autocomplete(
        bob, "reel", sub="replay", options={"player": alice, "game": ""}, focused="game"
    )
    assert [c["value"] for c in choices] == [str(game.id)]
    assert f"deal {DEAL_NUMBER}" in choices[0]["name"]
    await running.service.update_settings(alice.id, watchable=False)
    hidden = await fake.slash(bob, "reel", sub="replay", options={"game": str(game.id)})
    assert "chosen not to be watched" in await private_text(hidden)


async def test_a_daily_is_replayed_by_others_only_once_its_day_is_over(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    await running.service.daily(alice.id, None)
    await play_and_resign(running.service, alice, 3)
    game = await last_finished(running.service, alice)
    day = clock.now.date().isoformat()
    assert game.daily_date is not None and game.daily_date.isoformat() == day

    early = await fake.slash(bob, "reel", sub="replay", options={"player": alice, "date": day})
    assert "once that day is over" in await private_text(early)
    own = await private_message(await fake.slash(alice, "reel", sub="replay"))
    assert "Shown to you alone" in description(own)  # (deferred publicly if slow)
    await fake.click(alice, own, label="Last ⏭")
    assert board_of(own) == stored_board(game, 3)

    clock.advance(days=1)
    later = await fake.slash(bob, "reel", sub="replay", options={"player": alice, "date": day})
    shown = await later.wait_message()
    assert not shown.ephemeral and (shown.embed or {}).get("title") == f"Replay · daily {day}"
    assert board_of(shown) == stored_board(game, 0)
