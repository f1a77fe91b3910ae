"""End-to-end tests of ``/reel hint`` and the board's Hint button on the fake Discord: a private
answer after a private defer, the solver run in the service's process pool, the assisted note
for a daily (and the button's warning before it marks one), and the button's refusals; a hint
always filled in, whatever the solver does, while the player's other commands go on."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fake_discord import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeMessage,
    InteractionResult,
)
from harness import Clock, Launch, description

import bot.discord_bot.replies as replies_module
import bot.discord_bot.views as views_module
import bot.service.games as games_module
import bot.service.hints as hints_module
import bot.service.jobs as jobs_module
from bot.discord_bot.app import create_bot
from bot.service import GameService
from bot.store import Store
from engine import Game
from engine.solver.hints import Hint, heuristic_move
from tests.bot.hung_jobs import sleep_forever


@pytest.fixture
async def service(launch: Launch) -> GameService:
    """The service of a started bot: a real one (with its process pool) on a file."""
    return (await launch()).service


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
    assert "it starts a winning line" in description(message)
    [field] = message.embed["fields"]
    played = re.fullmatch(
        r"Pick it in the menu under your board, or type `/reel move from:([A-Z0-9]+ [A-Z0-9]+)`",
        field["value"],
    )
    assert played is not None, field
    assert "assisted" not in description(message)  # not a daily
    view = await service.show(alice.id)
    assert view.assisted and view.move_count == 0
    # The suggested move plays.
    moved = await fake.slash(alice, "reel", sub="move", options={"from": played.group(1)})
    assert "· moves 1 ·" in str((await moved.wait_message()).embed)
    # No public message came of the hint.
    public = [m for m in fake.channel_messages() if not m.ephemeral]
    assert public and not any("Hint" in str((m.embed or {}).get("title")) for m in public)


async def test_fair_hints_chosen_in_the_settings_say_how_often_the_move_wins(
    fake_discord: FakeDiscord, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a small budget: the blind player searches in the pure Python these tests run
    monkeypatch.setattr(hints_module, "FAIR_SAMPLES", 3)
    monkeypatch.setattr(hints_module, "FAIR_NODES", 300)
    fake = fake_discord
    carol = fake.user("bob")
    chosen = await fake.slash(carol, "reel", sub="settings", options={"hints": "fair"})
    assert "**Hints:** fair" in description(await chosen.wait_message())
    await (await fake.slash(carol, "reel", sub="new", options={"deal": "16"})).wait_message()
    while (view := await service.show(carol.id)).can_auto:  # past the safe Aces, to a choice
        await service.auto(carol.id)
    result = await fake.slash(carol, "reel", sub="hint")
    message = await result.wait_message(timeout=60)  # the blind player, in pure Python here
    assert message.embed is not None
    assert message.embed["title"] == "💡 Hint (fair: it can't see the stock either)"
    text = description(message)
    assert re.search(r"wins in \d+ of the 3 stock orders I tried", text) or "safe move" in text
    assert (await service.show(carol.id)).version == view.version  # nothing played


async def test_reel_hint_in_a_scored_daily_warns_before_marking_it_assisted(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    fake = fake_discord
    bob = fake.user("bob")
    await (await fake.slash(bob, "reel", sub="daily")).wait_message()
    warning = await private_hint(fake, "bob")
    assert "marks this daily as assisted" in description(warning)
    assert not (await service.show(bob.id)).assisted  # a warning only
    confirm = await fake.click(bob, warning, label="Show the hint anyway")
    hint = await confirm.wait_message()
    assert hint.id == warning.id and not hint.buttons
    assert "This daily is now marked as assisted on the leaderboard." in description(hint)
    assert (await service.show(bob.id)).assisted
    # Marked already: the next /reel hint answers without asking.
    again = await private_hint(fake, "bob")
    assert not again.buttons and str((again.embed or {}).get("title")).startswith("💡 Hint")


async def test_reel_hint_without_a_game_says_how_to_start_one(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    message = await private_hint(fake_discord, "alice")
    assert "You have no game in progress" in description(message)


# --------------------------------------------------------------------------- the Hint button


def hint_button(board: FakeMessage) -> str:
    [custom_id] = [c for c in board.custom_ids if c.startswith("reel:hint:")]
    return custom_id


async def press_hint(fake: FakeDiscord, name: str, board: FakeMessage) -> InteractionResult:
    return await fake.click(fake.user(name), board, hint_button(board))


async def hinted_privately(result: InteractionResult) -> FakeMessage:
    """The hint a Hint press answered with: deferred at once, privately, then filled in."""
    assert result.callback_type == DEFERRED_CHANNEL_MESSAGE
    message = await result.wait_message()
    assert message.ephemeral and not message.buttons, message.to_dict()
    assert not result.edited  # the board itself is left as it was
    return message


def shown(message: FakeMessage) -> dict[str, Any]:
    assert message.embed is not None
    return {k: message.embed.get(k) for k in ("title", "description", "fields", "footer")}


async def test_the_hint_button_gives_its_owner_the_same_private_hint_as_reel_hint(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    board = await (
        await fake.slash(alice, "reel", sub="new", options={"deal": "16"})
    ).wait_message()
    before = await service.show(alice.id)
    assert not before.assisted

    pressed = await hinted_privately(await press_hint(fake, "alice", board))
    assert pressed.embed is not None and pressed.embed["title"] == "💡 Hint: a winning line"
    after = await service.show(alice.id)
    assert after.assisted and after.version == before.version  # nothing played
    # Exactly what /reel hint says of the same position.
    asked = await private_hint(fake, "alice")
    assert shown(pressed) == shown(asked)
    # The board's buttons still work (the version did not change).
    dealt = await fake.click(alice, board, label="Deal (9 left)")
    assert dealt.callback_type == UPDATE_MESSAGE and dealt.edited


async def test_the_hint_button_refuses_anyone_but_the_owner(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    board = await (await fake.slash(alice, "reel", sub="daily")).wait_message()
    before = await service.show(alice.id)

    click = await press_hint(fake, "bob", board)
    assert click.callback_type == CHANNEL_MESSAGE
    refusal = await click.wait_message()
    assert refusal.ephemeral and "This is not your game" in description(refusal)
    assert not click.edited
    assert await service.show(alice.id) == before  # not marked assisted


async def test_the_hint_button_on_an_out_of_date_board_gives_no_hint_and_redraws_it(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    old = await (await fake.slash(alice, "reel", sub="new", options={"deal": "16"})).wait_message()
    old_hint = hint_button(old)
    newer = await (await fake.slash(alice, "reel", sub="deal")).wait_message()

    click = await press_hint(fake, "alice", old)
    assert click.callback_type == UPDATE_MESSAGE and click.edited
    [notice] = await click.wait_followups()
    assert notice.ephemeral and "out of date" in description(notice)
    assert not (await service.show(alice.id)).assisted
    assert hint_button(old) == hint_button(newer) != old_hint  # redrawn as it stands


async def test_the_hint_button_in_a_scored_daily_warns_before_marking_it_assisted(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    board = await (await fake.slash(alice, "reel", sub="daily")).wait_message()

    click = await press_hint(fake, "alice", board)
    assert click.callback_type == CHANNEL_MESSAGE
    warning = await click.wait_message()
    assert warning.ephemeral and "marks this daily as assisted" in description(warning)
    assert not (await service.show(alice.id)).assisted  # a warning only

    confirm = await fake.click(alice, warning, label="Show the hint anyway")
    assert confirm.callback_type == DEFERRED_UPDATE_MESSAGE  # at once: the solver may think
    hint = await confirm.wait_message()
    assert hint.id == warning.id and not hint.buttons  # the warning became the hint
    assert hint.embed is not None and str(hint.embed["title"]).startswith("💡 Hint")
    assert "This daily is now marked as assisted on the leaderboard." in description(hint)
    assert (await service.show(alice.id)).assisted

    # Marked already: the next press hints without asking again.
    again = await hinted_privately(await press_hint(fake, "alice", board))
    assert "This daily is now marked as assisted on the leaderboard." in description(again)


async def test_the_warnings_button_after_the_game_moved_on_gives_no_hint(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    board = await (await fake.slash(alice, "reel", sub="daily")).wait_message()
    warning = await (await press_hint(fake, "alice", board)).wait_message()
    await (await fake.slash(alice, "reel", sub="deal")).wait_message()

    confirm = await fake.click(alice, warning, label="Show the hint anyway")
    refusal = await confirm.wait_message()
    assert "Your game changed" in description(refusal) and not refusal.buttons
    assert not (await service.show(alice.id)).assisted


async def lost_hint(fake: FakeDiscord, name: str) -> tuple[FakeMessage, FakeMessage]:
    """A new game of deal 16 lost by its first move, and the private hint that says so."""
    player = fake.user(name)
    board = await (
        await fake.slash(player, "reel", sub="new", options={"deal": "16"})
    ).wait_message()
    # Taking the Ace out of C3 this early opens a space nothing can fill: lost at once.
    await (await fake.slash(player, "reel", sub="move", options={"from": "C3 ACE"})).wait_message()
    return board, await private_hint(fake, name)


async def test_a_lost_games_hint_undoes_back_to_where_it_still_could_be_won(
    fake_discord: FakeDiscord, service: GameService
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    board, lost = await lost_hint(fake, "alice")
    assert "It still could be at the start: undo back to there." in description(lost)
    assert [b["label"] for b in lost.buttons] == ["Undo back to the start"]
    # Not for anyone else to press.
    refused = await fake.click(fake.user("bob"), lost, label="Undo back to the start")
    assert "This is not your game" in description(await refused.wait_message())
    assert (await service.show(alice.id)).move_count == 1
    # The owner's click takes the move back and shows the board publicly, as /reel undo does.
    click = await fake.click(alice, lost, label="Undo back to the start")
    assert click.callback_type == CHANNEL_MESSAGE and not click.edited
    shown_board = await click.wait_message()
    assert not shown_board.ephemeral and shown_board.id not in (lost.id, board.id)
    assert "· moves 0 ·" in str(shown_board.embed)
    assert "Back at the start: took back 1 move" in str(shown_board.embed)
    assert (await service.show(alice.id)).move_count == 0
    # Pressed again, the hint is out of date: nothing more is undone.
    again = await fake.click(alice, lost, label="Undo back to the start")
    stale = await again.wait_message()
    assert stale.ephemeral and "nothing was undone" in description(stale)
    assert (await service.show(alice.id)).move_count == 0


async def test_a_slow_undo_from_the_hint_still_shows_the_board_publicly(
    fake_discord: FakeDiscord, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    _, lost = await lost_hint(fake, "alice")
    monkeypatch.setattr(replies_module, "DEFER_AFTER", 0.01)
    undo_to = service.undo_to

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.2)
        return await undo_to(*args, **kwargs)

    monkeypatch.setattr(service, "undo_to", slow)
    click = await fake.click(alice, lost, label="Undo back to the start")
    assert click.callback_type == DEFERRED_CHANNEL_MESSAGE  # a public "thinking…"
    shown_board = await click.wait_message()
    assert await fake.wait_until(lambda: "· moves 0 ·" in str(shown_board.embed))
    assert not shown_board.ephemeral and shown_board.id != lost.id
    assert lost.buttons  # the private hint itself was left as it was
    # A slow refusal goes out privately and leaves nothing public.
    again = await fake.click(alice, lost, label="Undo back to the start")
    assert again.callback_type == DEFERRED_CHANNEL_MESSAGE
    [stale] = await again.wait_followups(1)
    assert stale.ephemeral and "nothing was undone" in description(stale)
    placeholder = again.message
    assert placeholder is not None
    assert await fake.wait_until(lambda: placeholder.deleted)
    fake.assert_no_violations()


# --------------------------------------------------------------------------- in time, whatever


async def test_a_hint_whose_job_never_returns_is_filled_in_with_the_rule_of_thumb(
    fake_discord: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real bot, its real process pool, a solver job that never returns: the hint is
    # filled in at its deadline (short here), and the pool keeps serving.
    monkeypatch.setattr(games_module, "HINT_DEADLINE", 0.5)
    monkeypatch.setattr(jobs_module, "hint_job", sleep_forever)  # found by name in a worker
    service = (await launch()).service
    fake = fake_discord
    alice = fake.user("alice")
    await (await fake.slash(alice, "reel", sub="new", options={"deal": "16"})).wait_message()
    message = await private_hint(fake, "alice")
    assert message.embed is not None and message.embed["title"] == "💡 Hint: by rule of thumb"
    move = str(heuristic_move(Game.new(16)))
    assert "The solver found no winning line in the time it had" in description(message)
    assert message.embed["fields"][0]["value"].endswith(f"`/reel move from:{move}`")
    assert (await service.show(alice.id)).assisted
    # Again, with the first worker still hung: answered all the same; and the move plays.
    again = await private_hint(fake, "alice")
    assert again.embed is not None and again.embed["title"] == "💡 Hint: by rule of thumb"
    moved = await fake.slash(alice, "reel", sub="move", options={"from": move})
    assert "· moves 1 ·" in str((await moved.wait_message()).embed)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, threading.Event]]:
    """The solver's hint job held until the test releases it (``started``, ``release``)."""
    started, release = threading.Event(), threading.Event()
    real_job = jobs_module.hint_job

    def held_job(position: str, max_nodes: int, max_seconds: float) -> Hint:
        started.set()
        release.wait()
        return real_job(position, max_nodes, max_seconds)

    monkeypatch.setattr(jobs_module, "hint_job", held_job)
    yield started, release
    release.set()


@pytest.fixture
async def threaded(
    fake_discord: FakeDiscord, start_bot: Any, tmp_path: Path, clock: Clock
) -> AsyncIterator[GameService]:
    """The bot over a service whose solver jobs run in a thread (so that a test can hold
    one), started on the fake Discord."""
    store = await Store.open(tmp_path / "reel.db")
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(1))
    bot = create_bot(service, dev_guild_id=fake_discord.guild.id, guild_ready_timeout=0.1)
    await start_bot(bot)
    yield service
    await bot.close()
    await service.close()


async def test_the_players_commands_are_answered_while_their_hint_is_searched(
    fake_discord: FakeDiscord,
    threaded: GameService,
    held: tuple[threading.Event, threading.Event],
) -> None:
    started, release = held
    fake = fake_discord
    alice = fake.user("alice")
    await (await fake.slash(alice, "reel", sub="new", options={"deal": "16"})).wait_message()
    await (await fake.slash(alice, "reel", sub="deal")).wait_message()
    hinting = await fake.slash(alice, "reel", sub="hint")
    assert hinting.callback_type == DEFERRED_CHANNEL_MESSAGE  # deferred at once, privately
    await asyncio.to_thread(started.wait)  # the solver is searching
    # Her settings, an undo and a move, sent after the hint: each answered meanwhile.
    chosen = await fake.slash(alice, "reel", sub="settings", options={"suits": "letters"})
    assert "**Suits:**" in description(await chosen.wait_message())
    undone = await fake.slash(alice, "reel", sub="undo")
    assert "· moves 0 ·" in str((await undone.wait_message()).embed)
    dealt = await fake.slash(alice, "reel", sub="deal")
    assert "· moves 1 ·" in str((await dealt.wait_message()).embed)
    hint_message = hinting.message
    assert hint_message is not None and hint_message.loading  # the hint: still thinking
    release.set()
    # The hint was for the game before the undo: dropped, said so, nothing marked.
    stale = await hinting.wait_message()
    assert stale.ephemeral and "Your game changed while I was thinking" in description(stale)
    assert not (await threaded.show(alice.id)).assisted


async def test_a_deferred_hint_is_filled_in_even_if_the_service_never_answers(
    fake_discord: FakeDiscord, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views_module, "HINT_PATIENCE", 0.3)

    async def never(*args: Any, **kwargs: Any) -> Any:
        await asyncio.Event().wait()

    monkeypatch.setattr(service, "hint", never)
    fake = fake_discord
    alice = fake.user("alice")
    board = await (
        await fake.slash(alice, "reel", sub="new", options={"deal": "16"})
    ).wait_message()
    message = await private_hint(fake, "alice")
    assert "I couldn't work out a hint in time" in description(message)
    # The board's Hint button too.
    pressed = await hinted_privately(await press_hint(fake, "alice", board))
    assert "I couldn't work out a hint in time" in description(pressed)
