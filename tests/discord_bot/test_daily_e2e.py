"""End-to-end tests of the daily challenge, the leaderboards and the stats, on the fake Discord.

The real bot plays over a real service and SQLite file whose clock the test
sets (the ``clock`` fixture of conftest.py), so "today" is a known date. Players
act through slash commands and buttons; what the bot posted is read back from
the fake's message store. Leaderboards use pages of two rows, so a handful of
players gives several pages to click through.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from fake_discord import (
    CHANNEL_MESSAGE,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
)
from harness import START, Clock, Launch, description, footer, resigned

from bot.service import GameService, GameView
from bot.store import DailyDeal
from engine.daily import daily_start_number

DAY = START.date()  # "today" on the ``clock`` fixture
NEXT_MIDNIGHT = datetime(2026, 11, 30, tzinfo=UTC)
PAGE_SIZE = 2
NO_PINGS: dict[str, list[str]] = {"parse": []}


@pytest.fixture
def page_size() -> int:
    return PAGE_SIZE


# --------------------------------------------------------------------------- helpers


def embed_of(message: FakeMessage) -> dict[str, Any]:
    assert message.embed is not None, f"message {message.id} has no embed"
    return message.embed


def title(message: FakeMessage) -> str:
    return str(embed_of(message).get("title") or "")


def fields(message: FakeMessage) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed_of(message).get("fields") or []}


def pings_nobody(result: InteractionResult) -> None:
    assert result.callback_data is not None
    assert result.callback_data.get("allowed_mentions") == NO_PINGS, result.callback_data


async def public(result: InteractionResult) -> FakeMessage:
    message = await result.wait_message()
    assert not message.ephemeral, f"expected a public answer, got {message.to_dict()!r}"
    pings_nobody(result)
    return message


async def private_text(result: InteractionResult) -> str:
    assert result.callback_type == CHANNEL_MESSAGE
    message = await result.wait_message()
    assert message.ephemeral, f"expected an ephemeral answer, got {message.to_dict()!r}"
    pings_nobody(result)
    return description(message)


async def daily(fake: FakeDiscord, user: FakeUser, day: date = DAY) -> FakeMessage:
    board = await public(await fake.slash(user, "reel", sub="daily"))
    assert title(board) == f"Daily challenge · {day.isoformat()}"
    return board


async def leaderboard(fake: FakeDiscord, user: FakeUser, **options: str) -> FakeMessage:
    return await public(await fake.slash(user, "reel", sub="leaderboard", options=options))


def rows(board: FakeMessage) -> list[tuple[int, int]]:
    """``(rank, user id)`` of each row of a leaderboard message."""
    return [
        (int(rank), int(user))
        for rank, user in re.findall(r"^`#(\d+)\s.*` <@(\d+)>$", description(board), re.M)
    ]


def page_button(message: FakeMessage, direction: str) -> dict[str, Any]:
    [button] = [b for b in message.buttons if b["custom_id"].startswith(f"reel:lb:{direction}:")]
    return button


async def first_move(service: GameService, user: FakeUser) -> str:
    choices = await service.move_choices(user.id)
    return next(c.text for c in choices if c.text != "deal")


# --------------------------------------------------------------------------- /reel daily


async def test_the_daily_starts_then_resumes_with_its_date_and_the_next_start(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")

    board = await daily(fake, alice)
    deal = daily_start_number(DAY)
    assert footer(board).startswith(f"Deal {deal} · moves 0 ·")
    text = description(board)
    assert re.search(r"Next daily <t:\d+:R>", text)
    assert f"<t:{int(NEXT_MIDNIGHT.timestamp())}:R>" in text
    assert "Unscored" not in text and "Share" not in text

    move = await first_move(running.service, alice)
    moved = await public(await fake.slash(alice, "reel", sub="move", options={"from": move}))
    assert title(moved) == title(board) and "· moves 1 ·" in footer(moved)

    again = await daily(fake, alice)  # resumes: same deal, the move still there
    assert footer(again) == footer(moved)
    assert "in progress" in description(again)
    view = await running.service.show(alice.id)
    assert (view.daily_date, view.scored, view.move_count) == (DAY, True, 1)

    # Bob gets the same deal, everyone does.
    bobs = await daily(fake, fake.user("bob"))
    assert footer(bobs).startswith(f"Deal {deal} · moves 0 ·")


async def test_after_midnight_the_open_daily_says_that_todays_is_open(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    await launch()
    alice = fake.user("alice")
    await daily(fake, alice)
    clock.now = NEXT_MIDNIGHT + timedelta(minutes=1)
    shown = await public(await fake.slash(alice, "reel", sub="show"))
    text = description(shown)
    assert "The daily of 2026-11-30 is open: **/reel daily** deals it, and records" in text
    assert "Next daily" not in text  # not "tomorrow": today's has started


async def test_reel_new_does_not_spend_the_scored_daily_in_play(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await daily(fake, alice)
    before = await running.service.show(alice.id)

    refused = await fake.slash(alice, "reel", sub="new", options={"deal": "5"})
    text = await private_text(refused)
    assert "scored daily" in text and "/reel resign" in text
    after = await running.service.show(alice.id)
    assert (after.version, after.daily_date, after.scored) == (before.version, DAY, True)

    await public(await resigned(fake, alice))
    board = await public(await fake.slash(alice, "reel", sub="new", options={"deal": "5"}))
    assert footer(board).startswith("Deal 5 · moves 0 ·")


async def test_a_rated_daily_shows_its_difficulty_on_the_board_and_the_leaderboard(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    # the deal of the day, chosen and rated before (the bot rates it in the background)
    deal = DailyDeal(DAY, daily_start_number(DAY), None, None, "vr", "Expert")
    await running.store.save_daily_deal(deal)
    alice = fake.user("alice")
    board = await daily(fake, alice)
    assert "Difficulty: **Expert** (how a player who can't see the stock fares" in description(
        board
    )
    assert footer(board).startswith(f"Deal {deal.deal_number} ·")
    await public(await resigned(fake, alice))
    shown = await leaderboard(fake, alice)
    assert "Difficulty: **Expert**." in description(shown)


async def test_the_daily_over_a_game_in_progress_is_asked_about_first(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await public(await fake.slash(alice, "reel", sub="new", options={"deal": "5"}))
    await public(
        await fake.slash(alice, "reel", sub="move", options={"from": await first_move(
            running.service, alice)})
    )  # fmt: skip
    before = await running.service.show(alice.id)

    asked = await fake.slash(alice, "reel", sub="daily")
    question = await asked.wait_message()
    assert question.ephemeral
    assert description(question) == (
        "Your game in progress ends, recorded as abandoned. Play the daily challenge?"
    )
    assert (await running.service.show(alice.id)).version == before.version  # nothing yet
    [sure] = [c for c in question.custom_ids if ":sure:daily:" in c]
    assert sure.endswith(":vr")
    board = await public(await fake.click(alice, question, sure))
    assert "(deal 5 recorded as abandoned)" in description(board)
    view = await running.service.show(alice.id)
    assert (view.daily_date, view.scored) == (DAY, True)
    # The daily in play resumes without a question.
    again = await public(await fake.slash(alice, "reel", sub="daily"))
    assert "your game in progress" in description(again)


async def test_resigning_the_scored_daily_is_asked_about_even_before_a_move(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await daily(fake, alice)
    asked = await fake.slash(alice, "reel", sub="resign")
    text = await private_text(asked)
    assert text == (
        f"Your scored daily of {DAY} ends, recorded as resigned: it is the day's one scored "
        "attempt. Resign it?"
    )
    view = await running.service.show(alice.id)
    assert not view.finished and view.move_count == 0  # not resigned until the button


async def test_after_midnight_todays_daily_asks_before_it_records_yesterdays(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await daily(fake, alice)
    clock.now = NEXT_MIDNIGHT + timedelta(minutes=1)
    asked = await fake.slash(alice, "reel", sub="daily")
    assert f"Your scored daily of {DAY} ends, recorded as abandoned" in await private_text(asked)
    assert (await running.service.show(alice.id)).daily_date == DAY  # still yesterday's


async def test_after_the_scored_daily_ends_a_share_line_then_an_unscored_replay(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice = fake.user("alice")
    await daily(fake, alice)
    move = await first_move(running.service, alice)
    await public(await fake.slash(alice, "reel", sub="move", options={"from": move}))

    over = await public(await resigned(fake, alice))
    assert title(over) == f"Daily challenge · {DAY.isoformat()}"
    shared = re.search(r"```\n(Virginia Reel daily 2026-11-29: .*)\n```", description(over))
    assert shared is not None, description(over)
    view = await running.service.show(alice.id)
    assert view.finished and shared.group(1) == view.share_text
    assert shared.group(1).endswith("in 1 move")  # spoiler-free: the result, not the moves
    assert over.component(label="New game")

    replay = await daily(fake, alice)
    assert "Unscored replay" in description(replay)
    assert "```\nVirginia Reel daily" not in description(replay)
    assert "· moves 0 ·" in footer(replay)
    replay_over = await public(await resigned(fake, alice))
    assert "Unscored replay" in description(replay_over)
    assert "Virginia Reel daily" not in description(replay_over)  # a replay has no share line

    [scored] = (await running.service.leaderboard("daily", "global")).rows
    assert (scored.user_id, scored.moves) == (alice.id, 1)


# --------------------------------------------------------------------------- leaderboards


async def play_daily(
    fake: FakeDiscord, service: GameService, clock: Clock, user: FakeUser, moves: int
) -> GameView:
    """``user`` plays ``moves`` moves of today's daily (the first legal each time) and resigns."""
    await daily(fake, user, clock.now.date())
    for _ in range(moves):
        await service.move(user.id, await first_move(service, user))
    clock.advance(minutes=1)  # finishing later ranks lower among equals
    await public(await resigned(fake, user))
    return await service.show(user.id)


async def test_the_daily_leaderboard_ranks_the_players_and_pages_with_buttons(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    running = await launch()
    players = [fake.user("alice"), fake.user("bob")]
    players += [fake.add_user(name) for name in ("carol", "dave", "erin")]
    results = []
    for order, (player, moves) in enumerate(zip(players, [3, 0, 1, 3, 2], strict=True)):
        view = await play_daily(fake, running.service, clock, player, moves)
        results.append((-view.score, view.move_count, order, player.id))
    expected = [user_id for *_, user_id in sorted(results)]

    bob = players[1]
    board = await leaderboard(fake, bob)
    assert title(board) == f"Daily leaderboard · {DAY.isoformat()} · this server"
    assert footer(board) == "Page 1 of 3 · 5 players"
    assert rows(board) == [(1, expected[0]), (2, expected[1])]
    assert page_button(board, "prev").get("disabled") is True
    assert page_button(board, "next").get("disabled") is not True
    for button in board.buttons:
        assert len(button["custom_id"]) <= 100

    seen = rows(board)
    for page in (2, 3):  # anyone may page: here someone who is not on the board
        click = await fake.click(fake.user("carol"), board, page_button(board, "next")["custom_id"])
        assert click.callback_type == UPDATE_MESSAGE and click.edited
        pings_nobody(click)
        assert footer(board) == f"Page {page} of 3 · 5 players"
        seen += rows(board)
    assert seen == list(enumerate(expected, 1))
    assert page_button(board, "next").get("disabled") is True
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(bob, board, page_button(board, "next")["custom_id"])

    click = await fake.click(bob, board, label="◀ Previous")
    assert click.callback_type == UPDATE_MESSAGE
    assert footer(board) == "Page 2 of 3 · 5 players"
    assert rows(board) == [(3, expected[2]), (4, expected[3])]

    # After midnight the default board is the new day's (empty), but the old message
    # keeps paging the day it was drawn for.
    clock.advance(days=1)
    today = await leaderboard(fake, bob)
    assert "2026-11-30" in title(today) and rows(today) == []
    assert description(today) == (
        "No one has finished this daily here yet. Play it with **/reel daily**."
    )
    await fake.click(bob, board, label="◀ Previous")
    assert footer(board) == "Page 1 of 3 · 5 players"
    assert "2026-11-29" in title(board)
    dated = await leaderboard(fake, bob, date="2026-11-29")
    assert rows(dated) == rows(board)


async def test_paging_buttons_work_after_a_restart(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    first = await launch()
    for name in ("alice", "bob"):
        await play_daily(fake, first.service, clock, fake.user(name), 0)
    carol = fake.add_user("carol")
    await play_daily(fake, first.service, clock, carol, 0)
    board = await leaderboard(fake, carol, scope="global")
    assert footer(board) == "Page 1 of 2 · 3 players"

    await first.bot.close()
    await first.service.close()
    second = await launch()

    click = await fake.click(carol, board, label="Next ▶")
    assert click.callback_type == UPDATE_MESSAGE and click.edited
    assert footer(board) == "Page 2 of 2 · 3 players"
    assert rows(board) == [(3, carol.id)]
    assert second.bot is not first.bot


async def test_the_all_time_leaderboard_and_the_server_scope_in_a_dm(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    running = await launch(sync_global=True)
    alice, bob = fake.user("alice"), fake.user("bob")
    await play_daily(fake, running.service, clock, alice, 1)
    await play_daily(fake, running.service, clock, bob, 0)
    await public(await fake.slash(alice, "reel", sub="new", options={"deal": "5"}))
    await public(await resigned(fake, alice))

    board = await leaderboard(fake, bob, kind="all-time", scope="global")
    assert title(board) == "All-time leaderboard · global"
    text = description(board)
    assert "wins" in text and "rate" in text and "streak" in text
    assert [user for _, user in rows(board)] == [alice.id, bob.id]  # 2 games beat 1
    alice_row = text.splitlines()[1]
    assert alice_row.split("`")[1].split()[1:] == ["0", "2", "—", "1"]  # no rate under 5 games

    refused = await fake.slash(bob, "reel", sub="leaderboard", options={"scope": "server"}, dm=True)
    assert await private_text(refused) == (
        "Server leaderboards need a server: use this command in a server, "
        "or choose the global leaderboard."
    )
    dated = await fake.slash(
        bob, "reel", sub="leaderboard", options={"kind": "all-time", "date": "2026-11-28"}
    )
    assert await private_text(dated) == (
        "A date goes with the daily, weekly or seasonal leaderboard, not all-time."
    )
    in_dm = await public(await fake.slash(bob, "reel", sub="leaderboard", dm=True))
    assert title(in_dm).endswith("· global")  # a DM defaults to the global board

    bad = await fake.slash(bob, "reel", sub="leaderboard", options={"date": "29/11/2026"})
    assert "YYYY-MM-DD" in await private_text(bad)
    future = await fake.slash(bob, "reel", sub="leaderboard", options={"date": "2027-01-01"})
    assert "hasn't started" in await private_text(future)


# --------------------------------------------------------------------------- /reel stats


async def test_stats_show_a_players_record_privately(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    await play_daily(fake, running.service, clock, alice, 2)
    clock.advance(days=1)
    await play_daily(fake, running.service, clock, alice, 0)

    result = await fake.slash(alice, "reel", sub="stats")
    assert result.callback_type == CHANNEL_MESSAGE and result.ephemeral
    message = await result.wait_message()
    pings_nobody(result)
    assert f"<@{alice.id}>" in description(message)
    assert fields(message) == {
        "Games played": "2",
        "Won": "0",
        "Win rate": "0%",
        "Daily streak": "2 (best 2)",
        "Best score": f"{(await running.service.stats(alice.id)).best_score}/104",
        "Dailies played": "2 (won 0)",
        # the deal of alice's game (today's daily, resigned): played once, not won
        f"Deal {(await running.service.show(alice.id)).deal_number}": "won 0 of 1",
    }

    # Someone else's stats, asked for by name.
    other = await fake.slash(alice, "reel", sub="stats", options={"user": bob})
    assert "No finished games yet" in await private_text(other)
    assert f"<@{bob.id}>" in await private_text(other)
    assert all(m.ephemeral for m in fake.channel_messages() if "stats" in title(m))


async def test_a_paging_button_that_fails_says_so_privately_and_logs_it(
    fake: FakeDiscord,
    launch: Launch,
    clock: Clock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    running = await launch()
    for user in (fake.user("alice"), fake.user("bob"), fake.add_user("carol")):
        await play_daily(fake, running.service, clock, user, 0)
    board = await leaderboard(fake, fake.user("alice"), scope="global")
    before = board.version

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(running.service, "leaderboard", broken)
    click = await fake.click(fake.user("bob"), board, label="Next ▶")
    assert "couldn't turn the page" in await private_text(click)
    assert board.version == before  # the page stays as it was
    assert "the disk is on fire" in caplog.text
