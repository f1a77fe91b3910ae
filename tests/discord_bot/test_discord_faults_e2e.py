"""Discord's own faults, end to end: the real bot on the fake Discord while Discord rate
limits it (429), answers 5xx, leaves a call hanging, or drops the gateway under it.

What must hold whatever Discord does: a move the player made is stored exactly once
(the store's version and move list say so), a board never goes back to an older state
once a newer one was shown, every interaction is answered within Discord's 3 seconds
where that can be done at all, and a board Discord would not take is logged, said to the
player while a way to answer is open, and drawn right by a later ``/reel show``.

discord.py 2.7 does some of this by itself: every interaction call goes through its
webhook adapter, which sleeps a 429's ``retry_after`` and tries again, and sleeps 1, 3, 5,
7 s after a 5xx; five tries in all, then it raises. The tests check what the bot adds.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from fake_discord import (
    CALLBACK_PATH,
    DEFERRED_UPDATE_MESSAGE,
    FOLLOWUP_PATH,
    ORIGINAL_PATH,
    UPDATE_MESSAGE,
    Attempt,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
)
from harness import Launch, Running, footer, new_game, private_text, public_board

from bot.discord_bot import replies, views
from bot.store import Store

EPSILON = 0.001  # the fake's clock and the client's sleep are the same loop's clock


def button_id(message: FakeMessage, action: str) -> str:
    [found] = [c for c in message.custom_ids if c.startswith(f"reel:{action}:")]
    return found


def version_shown(custom_ids: list[str]) -> int:
    """The game version a board was drawn for (its buttons carry it)."""
    versions = {int(c.split(":")[3]) for c in custom_ids if c.startswith("reel:refresh:")}
    [version] = versions
    return version


def versions_shown(message: FakeMessage) -> list[int]:
    """The game version of each board the message showed, edit after edit."""
    shown = []
    for edit in message.edits:
        ids = [c["custom_id"] for row in edit["components"] for c in row["components"]]
        shown.append(version_shown(ids))
    return shown


async def stored(store: Store, user_id: int) -> tuple[int, str]:
    row = await store.load_game(user_id)
    assert row is not None
    return row.version, row.moves


def slow(
    monkeypatch: pytest.MonkeyPatch, running: Running, name: str, seconds: float
) -> asyncio.Event:
    """Make the service's ``name`` call take ``seconds`` more; the event is set when a
    call begins."""
    began = asyncio.Event()
    call: Callable[..., Awaitable[Any]] = getattr(running.service, name)

    async def slowly(*args: Any, **kwargs: Any) -> Any:
        began.set()
        await asyncio.sleep(seconds)
        return await call(*args, **kwargs)

    monkeypatch.setattr(running.service, name, slowly)
    return began


def defer_clicks(monkeypatch: pytest.MonkeyPatch, running: Running) -> None:
    """Make a Deal click slow enough to be deferred: its board then goes out as an edit
    of the deferred answer (PATCH @original), not in the first answer."""
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)
    slow(monkeypatch, running, "deal", 0.3)


def of(result: InteractionResult, path: str = ORIGINAL_PATH) -> str:
    """``path`` (a route pattern of the fake) for this interaction's token only."""
    return path.replace("[^/]+", re.escape(result.token), 1)


def waited(attempts: list[Attempt], retry_after: float) -> bool:
    """Whether each try came at least ``retry_after`` after the answer to the one before."""
    pairs = itertools.pairwise(attempts)
    return all(b.at - a.answered_at >= retry_after - EPSILON for a, b in pairs)


async def deal_click(fake: FakeDiscord, user: FakeUser, board: FakeMessage) -> InteractionResult:
    return await fake.click(user, board, button_id(board, "deal"))


async def shows(fake: FakeDiscord, board: FakeMessage, text: str, timeout: float = 5.0) -> None:
    assert await fake.wait_until(lambda: text in footer(fake.messages[board.id]), timeout), (
        f"the board never showed {text!r}: {footer(fake.messages[board.id])!r}"
    )


# --------------------------------------------------------------------------- 429


async def test_a_429_on_the_board_after_a_deferred_click_is_waited_out_and_the_move_stored_once(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    defer_clicks(monkeypatch, running)
    fake.fail("PATCH", ORIGINAL_PATH, status=429, retry_after=0.4)

    click = await deal_click(fake, alice, board)
    assert click.callback_type == DEFERRED_UPDATE_MESSAGE
    await shows(fake, board, "moves 1")
    tries = fake.attempts_at("PATCH", of(click))
    assert [a.status for a in tries] == [429, 200] and waited(tries, 0.4)
    assert await stored(running.store, alice.id) == (2, "deal")
    assert version_shown(fake.messages[board.id].custom_ids) == 2


async def test_a_429_storm_on_the_board_is_waited_out_try_after_try(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    defer_clicks(monkeypatch, running)
    fake.fail("PATCH", ORIGINAL_PATH, status=429, times=4, retry_after=0.2)

    click = await deal_click(fake, alice, board)
    await shows(fake, board, "moves 1")
    tries = fake.attempts_at("PATCH", of(click))
    assert [a.status for a in tries] == [429, 429, 429, 429, 200] and waited(tries, 0.2)
    assert await stored(running.store, alice.id) == (2, "deal")
    assert not click.followup_ids  # nothing to apologise for


async def test_a_429_storm_longer_than_discord_py_tries_is_said_to_the_player_and_show_repairs(
    fake: FakeDiscord,
    launch: Launch,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    defer_clicks(monkeypatch, running)
    fake.fail("PATCH", ORIGINAL_PATH, status=429, times=5, retry_after=0.1)

    with caplog.at_level(logging.WARNING, logger="bot.discord_bot.views"):
        click = await deal_click(fake, alice, board)
        assert await private_text(click) == views.BOARD_NOT_SHOWN
    assert [a.status for a in fake.attempts_at("PATCH", of(click))] == [429] * 5
    assert "was not shown" in caplog.text
    assert "moves 0" in footer(fake.messages[board.id])  # Discord never took the new board
    assert await stored(running.store, alice.id) == (2, "deal")  # but the move is kept
    shown = await public_board(await fake.slash(alice, "reel", sub="show"))
    assert "moves 1" in footer(shown) and version_shown(shown.custom_ids) == 2


async def test_a_429_on_a_follow_up_is_waited_out_and_the_notice_sent_once(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    old = fake.messages[board.id].to_dict()
    await public_board(await fake.slash(alice, "reel", sub="deal"))  # the board is stale now
    fake.fail("POST", FOLLOWUP_PATH, status=429, times=2, retry_after=0.3)

    stale = await fake.click(alice, board, button_id(board, "deal"))
    assert stale.callback_type == UPDATE_MESSAGE  # redrawn as the game stands
    assert "out of date" in await private_text(stale)
    tries = fake.attempts_at("POST", of(stale, FOLLOWUP_PATH))
    assert [a.status for a in tries] == [429, 429, 200] and waited(tries, 0.3)
    await asyncio.sleep(0.2)
    assert len(stale.followup_ids) == 1  # said once
    assert await stored(running.store, alice.id) == (2, "deal")  # the stale click did nothing
    assert fake.messages[board.id].to_dict()["components"] != old["components"]
    assert version_shown(fake.messages[board.id].custom_ids) == 2


async def test_a_board_held_up_behind_a_429_never_lands_over_a_newer_one(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    defer_clicks(monkeypatch, running)
    held = fake.fail("PATCH", ORIGINAL_PATH, status=429, retry_after=1.5)

    click = await deal_click(fake, alice, board)  # version 2: its board waits 1.5 s
    await fake.wait_until(lambda: held.hits == 1)
    undo = await fake.slash(alice, "reel", sub="undo")  # version 3, as a new message
    await public_board(undo)
    # Refresh on the old board (still drawn for version 1) draws version 3 on it.
    refresh = await fake.click(alice, board, button_id(board, "refresh"))
    assert refresh.acknowledged
    await fake.wait_until(lambda: version_shown(fake.messages[board.id].custom_ids) == 3)
    await asyncio.sleep(1.5 + 0.5)  # past the 429's retry_after

    version, _ = await stored(running.store, alice.id)
    assert version == 3
    assert versions_shown(fake.messages[board.id]) == [3]  # version 2 never drawn over it
    # The waiting board was dropped, not sent late: one try, the 429.
    assert [a.status for a in fake.attempts_at("PATCH", of(click))] == [429]
    assert not click.followup_ids and not refresh.followup_ids


# --------------------------------------------------------------------------- 5xx, hangs


@pytest.mark.parametrize("status", [500, 502, 503])
async def test_a_5xx_on_the_board_is_tried_again_and_the_move_stored_once(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch, status: int
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    defer_clicks(monkeypatch, running)
    fake.fail("PATCH", ORIGINAL_PATH, status=status)

    click = await deal_click(fake, alice, board)
    await shows(fake, board, "moves 1")
    tries = fake.attempts_at("PATCH", of(click))
    assert [a.status for a in tries] == [status, 200] and waited(tries, 1.0)  # discord.py: 1 s
    assert await stored(running.store, alice.id) == (2, "deal")
    assert not click.followup_ids


async def test_a_5xx_whose_edit_was_done_anyway_is_sent_again_and_shows_once(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    defer_clicks(monkeypatch, running)
    fake.fail("PATCH", ORIGINAL_PATH, status=502, applied=True)  # done, but "502" came back

    click = await deal_click(fake, alice, board)
    await fake.wait_until(lambda: len(fake.attempts_at("PATCH", of(click))) == 2)
    assert versions_shown(fake.messages[board.id]) == [2, 2]  # an edit twice is harmless
    assert await stored(running.store, alice.id) == (2, "deal")


@pytest.mark.parametrize("fault", ["503 every time", "a hung call"])
async def test_a_board_discord_never_takes_is_given_up_said_and_repaired_by_show(
    fake: FakeDiscord,
    launch: Launch,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    fault: str,
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    defer_clicks(monkeypatch, running)
    monkeypatch.setattr(views, "EDIT_PATIENCE", 1.5)  # the bot's own is 20 s
    if fault == "a hung call":
        armed = fake.hang("PATCH", ORIGINAL_PATH, seconds=3.0)
    else:
        armed = fake.fail("PATCH", ORIGINAL_PATH, status=503, times=10)

    with caplog.at_level(logging.WARNING, logger="bot.discord_bot.views"):
        click = await deal_click(fake, alice, board)
        assert await private_text(click) == views.BOARD_NOT_SHOWN
    assert "was not shown" in caplog.text
    assert await stored(running.store, alice.id) == (2, "deal")
    shown = await public_board(await fake.slash(alice, "reel", sub="show"))
    assert "moves 1" in footer(shown) and version_shown(shown.custom_ids) == 2
    fake.clear_faults()
    await fake.wait_until(lambda: armed.hits == armed.taken, 5.0)  # a hung call has ended
    assert "moves 0" in footer(fake.messages[board.id])  # not done late, behind the bot's back
    # Discord works again: the old board's click is refused as stale and redraws it right.
    stale = await deal_click(fake, alice, board)
    assert "out of date" in await private_text(stale)
    await shows(fake, board, "moves 1")
    assert await stored(running.store, alice.id) == (2, "deal")


async def test_a_5xx_on_a_follow_up_is_tried_again_and_the_notice_sent_once(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    await public_board(await fake.slash(alice, "reel", sub="deal"))  # the board is stale now
    fake.fail("POST", FOLLOWUP_PATH, status=500)

    stale = await deal_click(fake, alice, board)
    assert "out of date" in await private_text(stale)
    tries = fake.attempts_at("POST", of(stale, FOLLOWUP_PATH))
    assert [a.status for a in tries] == [500, 200] and waited(tries, 1.0)
    assert len(stale.followup_ids) == 1
    assert await stored(running.store, alice.id) == (2, "deal")


# --------------------------------------------------------------------------- first answers


async def test_a_429_on_the_first_answer_is_waited_out_within_discords_3_seconds(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    fake.fail("POST", CALLBACK_PATH, status=429, retry_after=0.5)

    click = await deal_click(fake, alice, board)  # the fake fails the test if it is late
    assert click.callback_type == UPDATE_MESSAGE
    tries = fake.attempts_at("POST", of(click, CALLBACK_PATH))
    assert [a.status for a in tries] == [429, 200] and waited(tries, 0.5)
    assert await stored(running.store, alice.id) == (2, "deal")
    assert "moves 1" in footer(fake.messages[board.id])


async def test_a_first_answer_rate_limited_past_3_seconds_is_lost_but_the_move_kept(
    fake: FakeDiscord, launch: Launch, caplog: pytest.LogCaptureFixture
) -> None:
    """What can't be helped: Discord gives up on an interaction after 3 s, so a retry
    after a longer retry_after is refused ("Unknown interaction") and the player sees
    "The application did not respond". The move was stored before the answer, and
    ``/reel show`` shows it."""
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    fake.fail("POST", CALLBACK_PATH, status=429, retry_after=3.5)

    with caplog.at_level(logging.WARNING, logger="bot.discord_bot.views"):
        click = await fake.click(alice, board, button_id(board, "deal"), wait=False)
        assert await fake.wait_until(lambda: bool(click.violations), 6.0)
        await fake.wait_until(lambda: "was not shown" in caplog.text)
    assert {v.rule for v in fake.take_violations()} == {"deadline"}
    assert "was not shown" in caplog.text
    assert await stored(running.store, alice.id) == (2, "deal")
    shown = await public_board(await fake.slash(alice, "reel", sub="show"))
    assert "moves 1" in footer(shown)


# --------------------------------------------------------------------------- the gateway


@pytest.mark.parametrize("code", [4000, None], ids=["close-4000", "cut-1006"])
async def test_a_gateway_drop_in_the_middle_of_a_click_loses_nothing_and_play_goes_on(
    fake: FakeDiscord, launch: Launch, monkeypatch: pytest.MonkeyPatch, code: int | None
) -> None:
    running = await launch()
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    began = slow(monkeypatch, running, "deal", 1.0)

    click = await fake.click(alice, board, button_id(board, "deal"), wait=False)
    await asyncio.wait_for(began.wait(), 3.0)
    session = await fake.drop_gateway(code)  # while the service call runs
    await click.wait_response()  # in time, or the fake fails the test
    await shows(fake, board, "moves 1")
    assert session.resumes == 1 and len(fake.sessions) == 1
    assert await stored(running.store, alice.id) == (2, "deal")

    undo = await fake.click(alice, board, button_id(fake.messages[board.id], "undo"))
    assert undo.callback_type == UPDATE_MESSAGE
    await shows(fake, board, "moves 0")
    assert await stored(running.store, alice.id) == (3, "")
