"""End-to-end tests: the real Reel bot, over a real service and SQLite file, on the fake Discord.

Each test starts the bot object from ``bot.discord_bot.app.create_bot`` with
``bot.start(token)`` against the fake Discord of ``fake_discord.py`` and acts
as players do: slash commands, autocomplete, button clicks. What the bot
posted is read back from the fake's message store, and what it did is checked
in the game service and the database. The fake fails a test at teardown if the
bot broke any of Discord's rules (limits, the 3-second deadline, double answers).
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from fake_discord import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
)
from harness import (
    DEAL_NUMBER,
    Launch,
    description,
    footer,
    is_board,
    new_game,
    private_text,
    public_board,
    resigned,
)

import bot.discord_bot.replies as replies_module
from bot.discord_bot.commands import GAME_OVER_CHOICE, NO_GAME_CHOICE, STUCK_CHOICE
from bot.service import GameService, GameView
from bot.store import Store
from engine import MAX_DEAL, Game, IllegalMoveError, Move, Status, display_width, render
from engine.notation import format_position
from engine.solver import Verdict, solve

SUIT_SIGNS = set("♠♥♦♣")
BOARD_LINE_COLUMNS = 30


# --------------------------------------------------------------------------- helpers


def button_id(message: FakeMessage, action: str) -> str:
    """The custom_id of the board button for ``action`` (deal, undo, auto, refresh, new)."""
    for custom_id in message.custom_ids:
        if custom_id.startswith(f"reel:{action}:"):
            return custom_id
    raise LookupError(f"no {action} button on message {message.id}: {message.custom_ids}")


def button(message: FakeMessage, action: str) -> dict[str, Any]:
    return message.component(button_id(message, action))


def menu_options(message: FakeMessage) -> list[str] | None:
    """The moves offered by the board's menu (the option values), or None without one."""
    ids = [c for c in message.custom_ids if c.startswith("reel:play:")]
    if not ids:
        return None
    return [o["value"] for o in message.component(ids[0])["options"]]


async def pick(
    fake: FakeDiscord, user: FakeUser, board: FakeMessage, move: str
) -> InteractionResult:
    """Pick ``move`` in the board's move menu."""
    [menu] = [c for c in board.custom_ids if c.startswith("reel:play:")]
    return await fake.click(user, board, menu, values=[move])


def board_text(message: FakeMessage) -> str:
    """The board inside the embed's code block."""
    found = re.search(r"```\n(.*?)\n```", description(message), re.DOTALL)
    assert found is not None, f"no board code block in {description(message)!r}"
    return found.group(1)


async def slash_move(fake: FakeDiscord, user: FakeUser, **options: str) -> InteractionResult:
    return await fake.slash(user, "reel", sub="move", options=options)


def footer_for(game: Game) -> str:
    return f"Deal {game.deal_number} · moves {game.move_count} · score {game.score}/104"


def footer_for_view(view: GameView) -> str:
    return f"Deal {view.deal_number} · moves {view.move_count} · score {view.score}/104"


def auto_matches_line(game: Game, line: tuple[Move, ...]) -> int:
    """How many moves of ``line`` the Auto button plays from ``game`` (0: Auto would stray)."""
    auto = game.copy()
    played = auto.play_safe_moves()
    if not played or len(played) > len(line):
        return 0
    scripted = game.copy()
    try:
        for move in line[: len(played)]:
            scripted.play(move)
    except IllegalMoveError:
        return 0
    return len(played) if format_position(scripted) == format_position(auto) else 0


# --------------------------------------------------------------------------- 1. a whole deal


async def test_a_scripted_deal_is_won_through_slash_commands_and_buttons(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    solution = solve(Game.new(DEAL_NUMBER))
    assert solution.verdict is Verdict.WON
    line = solution.line
    shadow = Game.new(DEAL_NUMBER)  # the engine played alongside, to know what to expect

    board = await new_game(fake, alice)
    assert footer(board) == footer_for(shadow)
    ways = {"deal button": 0, "auto button": 0, "from and to": 0, "whole move": 0}
    i = 0
    while i < len(line):
        move = line[i]
        if move.is_deal:
            click = await fake.click(alice, board, button_id(board, "deal"))
            assert click.callback_type == UPDATE_MESSAGE and click.edited
            shadow.play(move)
            i += 1
            ways["deal button"] += 1
        elif auto := auto_matches_line(shadow, line[i:]):
            click = await fake.click(alice, board, label="Auto")
            assert click.callback_type == UPDATE_MESSAGE and click.edited
            for scripted in line[i : i + auto]:
                shadow.play(scripted)
            i += auto
            ways["auto button"] += 1
        else:
            text = str(move)
            if i % 2:
                src, dst = text.split()
                result = await slash_move(fake, alice, **{"from": src, "to": dst})
                ways["from and to"] += 1
            else:
                result = await slash_move(fake, alice, **{"from": text})
                ways["whole move"] += 1
            board = await public_board(result)
            shadow.play(move)
            i += 1
        assert footer(board) == footer_for(shadow), f"after move {i} ({move})"
        assert board_text(board).splitlines()[1:] == render(shadow).splitlines()[1:]

    assert all(ways.values()), ways
    assert shadow.status is Status.WON
    text = description(board)
    assert "You won" in text and "🎉" in text
    assert footer(board).endswith("score 104/104")
    assert board.embed is not None and board.embed["color"] == discord.Colour.gold().value
    for action in ("deal", "undo", "redo", "auto", "refresh"):
        assert button(board, action).get("disabled") is True, action
    assert button(board, "new").get("disabled") is not True

    view = await running.service.show(alice.id)
    assert view.status is Status.WON and view.finished and view.score == 104
    assert view.move_count == len(line) and view.undo_count == 0
    [record] = await running.store.finished_games(alice.id)
    assert record.won and record.deal_number == DEAL_NUMBER and record.score == 104
    assert record.guild_id == fake.guild.id and record.undos == 0


async def test_a_deal_is_won_by_picking_its_moves_in_the_menu(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    line = solve(Game.new(DEAL_NUMBER)).line
    shadow = Game.new(DEAL_NUMBER)
    board = await new_game(fake, alice)
    picked = 0
    for i, move in enumerate(line):
        offered = menu_options(board)
        legal = [str(m) for m in shadow.legal_moves() if not m.is_deal]
        assert offered == (legal[:25] or None), f"before move {i + 1}"
        if move.is_deal:
            click = await fake.click(alice, board, button_id(board, "deal"))
        else:
            assert offered is not None and str(move) in offered
            click = await pick(fake, alice, board, str(move))
            picked += 1
        assert click.callback_type == UPDATE_MESSAGE and click.edited  # redrawn in place
        shadow.play(move)
        assert footer(board) == footer_for(shadow), f"after move {i + 1} ({move})"
    assert picked > 50 and shadow.status is Status.WON
    assert menu_options(board) is None  # nothing left to pick once the game is over
    view = await running.service.show(alice.id)
    assert view.status is Status.WON and view.move_count == len(line)


async def test_the_menu_refuses_others_and_an_out_of_date_board(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    old = await new_game(fake, alice)
    before = await running.service.show(alice.id)
    click = await pick(fake, bob, old, "R6 ACE")
    assert click.ephemeral and "not your game" in await private_text(click)
    assert not click.edited and await running.service.show(alice.id) == before

    newer = await public_board(await slash_move(fake, alice, **{"from": "R5 B1"}))
    moved = await running.service.show(alice.id)
    click = await pick(fake, alice, old, "R6 ACE")  # offered by the old board only
    assert click.callback_type == UPDATE_MESSAGE
    assert "out of date, so the move was not played" in await private_text(click)
    assert await running.service.show(alice.id) == moved
    assert footer(old) == footer(newer) and menu_options(old) == menu_options(newer)


async def test_two_picks_at_once_play_exactly_one_move(fake: FakeDiscord, launch: Launch) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    first, second = (menu_options(board) or [])[:2]
    picks = await asyncio.gather(pick(fake, alice, board, first), pick(fake, alice, board, second))
    assert [p.callback_type for p in picks] == [UPDATE_MESSAGE, UPDATE_MESSAGE]
    view = await running.service.show(alice.id)
    assert view.move_count == 1 and view.version == 2
    await fake.wait_until(lambda: any(p.followup_ids for p in picks))
    [refused] = [p for p in picks if p.followup_ids]
    assert "out of date, so the move was not played" in await private_text(refused)
    assert footer(board) == footer_for_view(view)


# --------------------------------------------------------------------------- 2. autocomplete


async def test_autocomplete_offers_legal_moves_in_words_and_where_a_card_can_go(
    fake: FakeDiscord, launch: Launch
) -> None:
    await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    legal = {str(m) for m in Game.new(DEAL_NUMBER).legal_moves()}

    choices = await fake.autocomplete(
        alice, "reel", sub="move", options={"from": ""}, focused="from"
    )
    assert 0 < len(choices) <= 25
    assert {c["value"] for c in choices} == legal  # deal 16 starts with fewer than 25 moves
    for choice in choices:
        if choice["value"] != "deal":
            assert "→" in choice["name"], choice
        assert len(choice["name"]) <= 100 and len(choice["value"]) <= 100

    narrowed = await fake.autocomplete(
        alice, "reel", sub="move", options={"from": "r5"}, focused="from"
    )
    assert narrowed and {c["value"] for c in narrowed} <= legal
    assert "R5 B1" in {c["value"] for c in narrowed}
    assert all("R5" in c["value"] or "r5" in c["name"].lower() for c in narrowed)

    targets = await fake.autocomplete(
        alice, "reel", sub="move", options={"from": "R5", "to": ""}, focused="to"
    )
    assert targets and len(targets) <= 25
    assert {f"R5 {c['value']}" for c in targets} <= legal
    assert "B1" in {c["value"] for c in targets}
    assert all("→" in c["name"] for c in targets)

    # Picking a whole move for ``from`` still offers its destination for ``to``.
    after_pick = await fake.autocomplete(
        alice, "reel", sub="move", options={"from": "R5 B1", "to": ""}, focused="to"
    )
    assert [c["value"] for c in after_pick] == ["B1"]
    # And sending both plays the move once.
    played = await public_board(await slash_move(fake, alice, **{"from": "R5 B1", "to": "B1"}))
    assert "· moves 1 ·" in footer(played)

    # Someone with no game is told how to start one, in the list itself.
    bob = fake.user("bob")
    nothing = await fake.autocomplete(bob, "reel", sub="move", options={"from": ""}, focused="from")
    assert [c["name"] for c in nothing] == [NO_GAME_CHOICE]
    sent = await slash_move(fake, bob, **{"from": nothing[0]["value"]})
    assert await private_text(sent) == f"{NO_GAME_CHOICE}."
    await (await resigned(fake, alice)).wait_message()
    over = await fake.autocomplete(alice, "reel", sub="move", options={"from": ""}, focused="from")
    assert [c["name"] for c in over] == [GAME_OVER_CHOICE]
    sent = await slash_move(fake, alice, **{"from": over[0]["value"]})
    assert await private_text(sent) == f"{GAME_OVER_CHOICE}."


async def test_a_stuck_game_says_so_in_the_move_list(fake: FakeDiscord, launch: Launch) -> None:
    running = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    rng = random.Random(3)
    view = await running.service.show(alice.id)
    while view.status is Status.PLAYING:  # random moves until none is left
        choices = await running.service.move_choices(alice.id, limit=100)
        view = await running.service.move(alice.id, rng.choice(choices).text)
    assert view.status is Status.STUCK
    listed = await fake.autocomplete(
        alice, "reel", sub="move", options={"from": ""}, focused="from"
    )
    assert [c["name"] for c in listed] == [STUCK_CHOICE]
    sent = await slash_move(fake, alice, **{"from": listed[0]["value"]})
    assert await private_text(sent) == f"{STUCK_CHOICE}."


# --------------------------------------------------------------------------- 3. typed wrong


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"from": "zz top"}, "I don't know 'zz'"),
        ({"from": "r1", "to": "a1"}, "can't go on 2♣"),
        ({"from": "r1 a1"}, "builds follow suit"),
    ],
    ids=["not-a-pile", "illegal-from-to", "illegal-whole-move"],
)
async def test_a_move_typed_wrong_is_explained_privately_and_changes_nothing(
    fake: FakeDiscord, launch: Launch, options: dict[str, str], problem: str
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    before = await running.service.show(alice.id)
    messages_before = len(fake.channel_messages())

    result = await slash_move(fake, alice, **options)
    assert result.callback_type == CHANNEL_MESSAGE and result.ephemeral
    assert problem in await private_text(result)

    after = await running.service.show(alice.id)
    assert (after.version, after.board, after.move_count) == (
        before.version,
        before.board,
        before.move_count,
    )
    public = [m for m in fake.channel_messages() if not m.ephemeral]
    assert public == [board] and board.version == 0
    assert len(fake.channel_messages()) == messages_before + 1  # only the private refusal


async def test_a_deal_number_typed_wrong_is_refused_privately(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    result = await fake.slash(alice, "reel", sub="new", options={"deal": "sixteen"})
    assert result.ephemeral and "whole number" in await private_text(result)
    assert await running.store.load_game(alice.id) is None


# --------------------------------------------------------------------------- 4. another user


async def test_another_users_click_is_refused_privately_and_leaves_the_game_alone(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    board = await new_game(fake, alice)
    before = await running.service.show(alice.id)

    for action in ("deal", "auto", "refresh"):
        click = await fake.click(bob, board, button_id(board, action))
        assert click.callback_type == CHANNEL_MESSAGE and click.ephemeral
        assert "not your game" in await private_text(click)
        assert not click.edited

    after = await running.service.show(alice.id)
    assert after == before
    assert await running.store.load_game(bob.id) is None


async def test_a_board_button_that_fails_says_so_privately_and_logs_it(
    fake: FakeDiscord,
    launch: Launch,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    before = board.version

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(running.service, "show", broken)
    click = await fake.click(alice, board, label="Refresh")
    assert "Something went wrong on my side" in await private_text(click)
    assert board.version == before  # the board stays as it was
    assert "the disk is on fire" in caplog.text


# --------------------------------------------------------------------------- 5. stale button


async def test_a_stale_button_applies_nothing_and_redraws_the_board_as_it_stands(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    old = await new_game(fake, alice)
    old_deal = button_id(old, "deal")
    newer = await public_board(await slash_move(fake, alice, **{"from": "R5 B1"}))
    before = await running.service.show(alice.id)
    assert before.move_count == 1

    click = await fake.click(alice, old, old_deal)
    assert click.callback_type == UPDATE_MESSAGE
    assert "out of date" in await private_text(click)

    after = await running.service.show(alice.id)
    assert (after.move_count, after.version, after.deals_left) == (
        before.move_count,
        before.version,
        before.deals_left,
    )
    # The old board now shows the game as it stands, with buttons for the current version.
    assert footer(old) == footer(newer)
    assert button_id(old, "deal") == button_id(newer, "deal") != old_deal


# --------------------------------------------------------------------------- 6. two at once


async def move_elsewhere(db: Path, user_id: int) -> GameView:
    """Another process on the same database plays a move (R5 to B1) for the user."""
    async with Store(db) as store:
        return await GameService(store).move(user_id, "r5 b1")


async def test_a_slash_command_on_a_game_changed_elsewhere_is_played_on_it_as_it_stands(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    """A typed command carries no board version: as on a shared database, the bot's write
    finds the stored game moved on (another process on the file), and the command runs
    again on the game as it now stands; nothing is lost or played twice."""
    running = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    elsewhere = await move_elsewhere(tmp_path / "reel.db", alice.id)

    result = await fake.slash(alice, "reel", sub="deal")
    board = await public_board(result)  # the deal played after the other process's move
    shown = await running.service.show(alice.id)
    assert (shown.version, shown.move_count, shown.deals_left) == (
        elsewhere.version + 1, 2, elsewhere.deals_left - 1,
    )  # fmt: skip
    assert footer(board) == footer_for_view(shown)
    assert not board.deleted


def slowed(monkeypatch: pytest.MonkeyPatch, service: GameService, name: str) -> None:
    """Make ``service.<name>`` slow enough to be deferred (with a short deferral limit)."""
    monkeypatch.setattr(replies_module, "DEFER_AFTER", 0.01)
    call = getattr(service, name)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.2)
        return await call(*args, **kwargs)

    monkeypatch.setattr(service, name, slow)


async def test_a_slow_private_answer_reaches_its_player_and_leaves_nothing_public(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    slowed(monkeypatch, running.service, "stats")
    slowed(monkeypatch, running.service, "move")
    slowed(monkeypatch, running.service, "update_settings")
    public_before = [m.id for m in fake.channel_messages() if not m.ephemeral]

    async def answered_privately(result: InteractionResult) -> None:
        assert result.callback_type == DEFERRED_CHANNEL_MESSAGE  # "thinking…" in public
        [answer] = await result.wait_followups(1)
        assert answer.ephemeral and not answer.deleted and description(answer)
        placeholder = result.message
        assert placeholder is not None
        await fake.wait_until(lambda: placeholder.deleted)

    await answered_privately(await fake.slash(alice, "reel", sub="stats"))
    await answered_privately(await slash_move(fake, alice, **{"from": "zz top"}))
    await answered_privately(
        await fake.slash(alice, "reel", sub="settings", options={"auto_aces": True})
    )
    assert (await running.service.get_settings(alice.id)).auto_aces  # saved, and said so
    public_after = [m.id for m in fake.channel_messages() if not m.ephemeral]
    assert public_after == public_before  # no public trace left
    fake.assert_no_violations()


async def test_a_slow_slash_command_on_a_game_changed_elsewhere_keeps_the_board(
    fake: FakeDiscord, launch: Launch, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    elsewhere = await move_elsewhere(tmp_path / "reel.db", alice.id)
    slowed(monkeypatch, running.service, "deal")

    result = await fake.slash(alice, "reel", sub="deal")
    assert result.callback_type == DEFERRED_CHANNEL_MESSAGE
    board = await public_board(result)  # the deferred answer filled in with the board
    assert not board.deleted and not board.ephemeral
    shown = await running.service.show(alice.id)
    assert (shown.version, shown.move_count) == (elsewhere.version + 1, 2)
    assert footer(board) == footer_for_view(shown)


async def test_undo_two_then_redo_and_restart_through_commands_and_the_button(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    assert button(board, "redo").get("disabled") is True  # nothing taken back yet
    for _ in range(3):
        view = await running.service.show(alice.id)
        board = await public_board(await slash_move(fake, alice, **{"from": view.moves[0].text}))
    assert (await running.service.show(alice.id)).move_count == 3

    back = await public_board(await fake.slash(alice, "reel", sub="undo", options={"moves": 2}))
    assert "moves 1 ·" in footer(back) and button(back, "redo").get("disabled") is not True
    click = await fake.click(alice, back, button_id(back, "redo"))
    assert click.callback_type == UPDATE_MESSAGE and "moves 2 ·" in footer(back)
    again = await public_board(await fake.slash(alice, "reel", sub="redo"))
    assert "moves 3 ·" in footer(again) and button(again, "redo").get("disabled") is True

    refused = await fake.slash(alice, "reel", sub="redo")
    assert "nothing to redo" in await private_text(refused)
    start = await public_board(await fake.slash(alice, "reel", sub="restart"))
    assert "moves 0 ·" in footer(start) and "Restarted deal" in description(start)
    assert (await running.service.stats(alice.id)).games == 0  # still the one game


async def test_new_resign_and_a_large_undo_ask_first_with_a_private_button(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    line = solve(Game.new(DEAL_NUMBER)).line
    for move in line[:12]:  # twelve commands of a game still in play
        await public_board(await fake.slash(alice, "reel", sub="move", options={"from": str(move)}))
    before = await running.service.show(alice.id)
    assert before.in_progress

    asked = await fake.slash(alice, "reel", sub="new", options={"deal": "5"})
    question = await asked.wait_message()
    assert question.ephemeral and "recorded as abandoned. Start a new game?" in description(
        question
    )
    assert (await running.service.show(alice.id)).version == before.version  # nothing yet
    resign = await fake.slash(alice, "reel", sub="resign")
    assert "Resign it?" in await private_text(resign)
    undo = await fake.slash(alice, "reel", sub="undo", options={"moves": 11})
    assert "Take back 11 moves?" in await private_text(undo)
    # more than there are: refused at once, with no question to answer first
    many = await fake.slash(alice, "reel", sub="undo", options={"moves": 200})
    assert "You can take back 12 moves at most, not 200" in await private_text(many)
    few = await public_board(await fake.slash(alice, "reel", sub="undo", options={"moves": 2}))
    assert f"moves {before.move_count - 2} ·" in footer(few)  # ten or fewer: not asked

    # The question asked before the undo is out of date now: its button does nothing.
    stale = await fake.click(alice, question, label="Start a new game")
    assert "changed since you were asked" in await private_text(stale)
    again = await (await fake.slash(alice, "reel", sub="new", options={"deal": "5"})).wait_message()
    click = await fake.click(alice, again, label="Start a new game")
    board = await click.wait_message()
    assert is_board(board) and not board.ephemeral
    assert "New game of Virginia Reel: deal 5" in description(board)
    assert "recorded as abandoned" in description(board)


async def test_a_restart_of_more_than_ten_moves_asks_first_with_a_private_button(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    line = solve(Game.new(DEAL_NUMBER)).line
    for move in line[:11]:  # eleven commands: one more than an undo takes unasked
        await public_board(await fake.slash(alice, "reel", sub="move", options={"from": str(move)}))
    before = await running.service.show(alice.id)
    asked = await fake.slash(alice, "reel", sub="restart")
    question = await asked.wait_message()
    assert question.ephemeral
    assert "Start this deal over, taking back all 11 moves?" in description(question)
    assert (await running.service.show(alice.id)).version == before.version  # nothing yet
    click = await fake.click(alice, question, label="Start over")
    board = await click.wait_message()
    assert is_board(board) and not board.ephemeral and "Restarted deal" in description(board)
    assert (await running.service.show(alice.id)).move_count == 0
    await public_board(await fake.slash(alice, "reel", sub="redo", options={"moves": 11}))
    await public_board(await fake.slash(alice, "reel", sub="undo", options={"moves": 1}))
    # ten commands to take back: started over at once, as an undo of ten is
    few = await public_board(await fake.slash(alice, "reel", sub="restart"))
    assert "Restarted deal" in description(few)


# --------------------------------------------------------------------------- 7. restart


async def test_after_a_restart_the_old_messages_buttons_continue_the_game(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    first = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    board = await public_board(await slash_move(fake, alice, **{"from": "R5", "to": "B1"}))
    click = await fake.click(alice, board, label="Auto")
    assert click.callback_type == UPDATE_MESSAGE
    before = await first.service.show(alice.id)
    assert before.move_count == 3

    await first.bot.close()
    await first.service.close()
    second = await launch(tmp_path / "reel.db")
    assert second.bot is not first.bot and first.bot.is_closed()

    click = await fake.click(alice, board, button_id(board, "deal"))
    assert click.callback_type == UPDATE_MESSAGE and click.edited
    after = await second.service.show(alice.id)
    assert after.move_count == before.move_count + 1
    assert after.deals_left == before.deals_left - 1
    assert after.version == before.version + 1
    assert footer(board) == footer_for_view(after)

    # Undo goes back to the position from before the restart.
    click = await fake.click(alice, board, button_id(board, "undo"))
    assert click.callback_type == UPDATE_MESSAGE
    undone = await second.service.show(alice.id)
    assert undone.board == before.board and undone.move_count == before.move_count

    # The move menu too.
    offered = menu_options(board)
    assert offered
    click = await pick(fake, alice, board, offered[0])
    assert click.callback_type == UPDATE_MESSAGE and click.edited
    picked = await second.service.show(alice.id)
    assert picked.move_count == undone.move_count + 1

    # And slash commands play on the same game.
    shown = await public_board(await fake.slash(alice, "reel", sub="show"))
    assert footer(shown) == footer_for_view(picked)


async def test_new_game_clicked_twice_after_a_restart_starts_one_game(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    first = await launch()
    alice = fake.user("alice")
    await new_game(fake, alice)
    over = await public_board(await resigned(fake, alice))
    gave_up = await first.service.show(alice.id)
    await first.bot.close()
    await first.service.close()
    second = await launch(tmp_path / "reel.db")  # nothing cached: both clicks load the game

    custom_id = button_id(over, "new")
    clicks = await asyncio.gather(
        fake.click(alice, over, custom_id), fake.click(alice, over, custom_id)
    )
    assert [c.callback_type for c in clicks] == [UPDATE_MESSAGE, UPDATE_MESSAGE]
    started = await second.service.show(alice.id)
    assert not started.finished and started.version == gave_up.version + 1  # one game
    records = await second.service.store.finished_games(alice.id)
    assert [r.outcome for r in records] == ["resigned"]  # the new game was not abandoned
    await fake.wait_until(lambda: any(c.followup_ids for c in clicks))
    [refused] = [c for c in clicks if c.followup_ids]
    assert "newer game in progress" in await private_text(refused)
    assert footer(over) == footer_for_view(started)


# --------------------------------------------------------------------------- 8. DMs and limits


async def test_a_game_in_a_dm_works_and_stays_within_discords_limits(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch(sync_global=True)
    assert [c["name"] for c in fake.global_commands] == ["reel"]
    bob = fake.user("bob")
    # The longest deal number makes the longest title, footer and board header.
    board = await new_game(fake, bob, MAX_DEAL, dm=True)
    assert board.guild_id is None and board.channel_id == fake.dm_channels[bob.id]
    view = await running.service.show(bob.id)
    assert view.guild_id is None and view.deal_number == MAX_DEAL

    click = await fake.click(bob, board, button_id(board, "deal"))
    assert click.callback_type == UPDATE_MESSAGE and click.edited
    assert (await running.service.show(bob.id)).move_count == 1

    assert board.embed is not None
    embed = board.embed
    assert len(embed["title"]) <= 256 and len(description(board)) <= 4096
    assert len(footer(board)) <= 2048
    for line in board_text(board).splitlines():
        assert display_width(line) <= BOARD_LINE_COLUMNS, line
    assert "\ufe0f" not in description(board)
    assert len(board.components) <= 5
    for row in board.components:
        assert len(row["components"]) <= 5
    for item in board.buttons:
        assert 1 <= len(item["custom_id"]) <= 100 and len(item["label"]) <= 80
    # Anything over a limit would have been refused by the fake and failed at teardown.
    assert fake.violations == []


# --------------------------------------------------------------------------- 9. help, settings


async def test_help_and_rules_answer_privately(fake: FakeDiscord, launch: Launch) -> None:
    await launch()
    alice = fake.user("alice")
    help_text = await private_text(await fake.slash(alice, "reel", sub="help"))
    for command in ("/reel new", "/reel move", "/reel deal", "/reel undo", "/reel settings"):
        assert command in help_text
    rules_text = await private_text(await fake.slash(alice, "reel", sub="rules"))
    assert "104" in rules_text and "Deal" in rules_text
    assert all(m.ephemeral for m in fake.channel_messages())


class Drawn(random.Random):
    """Random deal numbers drawn from a list, in turn."""

    def __init__(self, *numbers: int) -> None:
        super().__init__(0)
        self.numbers = list(numbers)

    def randint(self, a: int, b: int) -> int:
        return self.numbers.pop(0)


async def test_the_winnable_deals_setting_deals_a_proven_deal_from_new_and_the_button(
    fake: FakeDiscord, launch: Launch
) -> None:
    # Drawn first: deal 14, lost; 15, lost too (the SAT prover proves it); 16 is won.
    running = await launch(rng=Drawn(14, 1))
    alice = fake.user("alice")
    result = await fake.slash(alice, "reel", sub="settings", options={"winnable_deals": True})
    assert result.callback_type == CHANNEL_MESSAGE and result.ephemeral
    assert "Winnable deals:** on" in await private_text(result)
    assert (await running.service.get_settings(alice.id)).winnable
    # (the solver pool starts with this first search, on a machine maybe busy: time is given)
    new = await fake.slash(alice, "reel", sub="new")
    board = await new.wait_message(timeout=30)
    assert is_board(board) and not board.ephemeral
    assert "New game of Virginia Reel: deal 16 · proven winnable" in description(board)
    assert [solve(Game.new(n), max_nodes=5_000).verdict for n in (14, 15, 16)] == [
        Verdict.UNWINNABLE,
        Verdict.UNWINNABLE,
        Verdict.WON,
    ]
    await (await fake.slash(alice, "reel", sub="resign")).wait_message()
    shown = await public_board(await fake.slash(alice, "reel", sub="show"))
    # The board's New game button too (the board redrawn in place, deferred if slow).
    click = await fake.click(alice, shown, label="New game")
    assert click.callback_type in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE)
    assert await fake.wait_until(lambda: "· proven winnable" in description(shown), timeout=30)
    assert (await running.service.show(alice.id)).deal_number == 1  # drawn, and proven


async def test_suit_letters_setting_changes_the_board_to_letters(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    assert SUIT_SIGNS & set(board_text(board))

    result = await fake.slash(alice, "reel", sub="settings", options={"suits": "letters"})
    assert result.callback_type == CHANNEL_MESSAGE and result.ephemeral
    text = await private_text(result)
    assert "letters" in text and "Your next board shows the change" in text
    assert (await running.service.get_settings(alice.id)).symbols is False
    again = await fake.slash(alice, "reel", sub="settings", options={"suits": "letters"})
    assert "shows the change" not in await private_text(again)  # nothing changed

    shown = await public_board(await fake.slash(alice, "reel", sub="show"))
    assert not SUIT_SIGNS & set(board_text(shown))
    # A1 holds the 2 of clubs (based), A2 the 7 of hearts (misplaced: the star after it)
    assert "\nA 2C 7H*" in board_text(shown)
    # The old board's Refresh button redraws it with letters too.
    click = await fake.click(alice, board, label="Refresh")
    assert click.callback_type == UPDATE_MESSAGE
    assert not SUIT_SIGNS & set(board_text(board))
