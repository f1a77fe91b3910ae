"""End-to-end tests of the weekly and seasonal boards and of practice of a past daily,
on the fake Discord with the real discord.py client, several players, the clock moved.

Every daily here deals deal 28, whose winning line is known, so a player wins a daily
by playing that line through the service while the boards are read through Discord.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from fake_discord import UPDATE_MESSAGE, FakeDiscord, FakeMessage, FakeUser, InteractionResult
from harness import START, Clock, Launch, description, footer, resigned

from bot.service import GameService
from bot.service.dailies import DailyDeals
from bot.store import DailyDeal
from engine import Status

SUNDAY = START.date()  # 2026-11-29, the last day of ISO week 48
assert SUNDAY.isoweekday() == 7
WEEK_48 = "Week 48 of 2026 (2026-11-23 to 2026-11-29)"
WEEK_49 = "Week 49 of 2026 (2026-11-30 to 2026-12-06)"
NO_PINGS: dict[str, list[str]] = {"parse": []}

WINNING_DEAL = 28
WINNING_TEXT = (
    "R6 ACE;B5 ACE;R8 A1;R2 B5;deal;A7 ACE;R1 B5;R6 C1;R2 A7;deal;B6 ACE;B2 A7;R2 B2;A3 B6;"
    "C8 B6;R3 A3;R3 A3;R1 A3;R4 C8;deal;R4 C1;R1 C1;R7 B1;R1 B1;deal;R1 ACE;R2 C3;R5 B1;"
    "R7 A7;A6 A7;R2 A6;R8 A6;deal;R6 A6;R7 B5;deal;R3 ACE;R7 ACE;R1 B6;deal;R8 ACE;R3 B5;"
    "B3 B2;C2 B2;R7 B2;R1 B3;C5 B3;R1 B3;A4 B3;R2 A4;R4 C2;R5 C5;R5 C2;R5 C5;R5 B6;deal;"
    "R2 C8;R3 C3;R5 A1;A2 C3;B7 C2;R3 C2;R7 B7;C4 A2;R4 C4;R4 B7;A5 B7;C7 C4;R5 A5;R5 C5;"
    "R3 C5;R8 C7;R8 A1;R8 A5;deal;R1 A2;R4 C8;R5 A2;R4 A2;R6 A5;R8 C4;A8 C7;R4 C7;B4 C8;"
    "R7 B4;R5 B4;R6 B4;R6 A5;R7 C4;R7 A3;B8 B4;R2 B8;R2 B8;R8 B8;R3 B8;R8 A4;R4 A4;R2 A4;"
    "R4 A6;C6 A8;R1 A8;R3 A8;R8 A8;R6 C6;R6 B7;R6 C7;R6 C6;R3 C6;R7 C6"
)  # tests/bot/known_win.py's line (that folder is not importable from here)
WINNING_LINE = WINNING_TEXT.split(";")


@pytest.fixture(autouse=True)
def winnable_dailies(monkeypatch: pytest.MonkeyPatch) -> None:
    async def deal_28(self: DailyDeals, day: date, variant: str = "vr") -> DailyDeal:
        return DailyDeal(day, WINNING_DEAL, WINNING_TEXT, len(WINNING_LINE))

    monkeypatch.setattr(DailyDeals, "find", deal_28)


@pytest.fixture
def page_size() -> int:
    return 1


# --------------------------------------------------------------------------- helpers


def embed_of(message: FakeMessage) -> dict[str, Any]:
    assert message.embed is not None, f"message {message.id} has no embed"
    return message.embed


def title(message: FakeMessage) -> str:
    return str(embed_of(message).get("title") or "")


async def public(result: InteractionResult) -> FakeMessage:
    message = await result.wait_message()
    assert not message.ephemeral, f"expected a public answer, got {message.to_dict()!r}"
    assert result.callback_data is not None
    assert result.callback_data.get("allowed_mentions") == NO_PINGS
    return message


async def private(result: InteractionResult) -> FakeMessage:
    message = await result.wait_message()
    assert message.ephemeral, f"expected a private answer, got {message.to_dict()!r}"
    return message


async def board(fake: FakeDiscord, user: FakeUser, **options: str) -> FakeMessage:
    return await public(await fake.slash(user, "reel", sub="leaderboard", options=options))


def rows(message: FakeMessage) -> list[tuple[int, int, str]]:
    """``(rank, user id, cells)`` of each row of a leaderboard message."""
    found = re.findall(r"^`#(\d+)\s+(.*)` <@(\d+)>$", description(message), re.M)
    return [(int(rank), int(user), " ".join(cells.split())) for rank, cells, user in found]


async def win_daily(fake: FakeDiscord, service: GameService, user: FakeUser) -> None:
    """``/reel daily`` in Discord, then the known winning line through the service."""
    daily = await public(await fake.slash(user, "reel", sub="daily"))
    assert title(daily).startswith("Daily challenge · ")
    view = await service.show(user.id)
    for text in WINNING_LINE:
        view = await service.move(user.id, text, view.version)
    assert view.status is Status.WON


async def lose_daily(fake: FakeDiscord, service: GameService, user: FakeUser) -> None:
    """``/reel daily``, one deal, then resign (through Discord)."""
    await public(await fake.slash(user, "reel", sub="daily"))
    await service.deal(user.id)
    await public(await resigned(fake, user))


# --------------------------------------------------------------------------- weekly, seasonal


async def test_the_weekly_board_turns_over_on_monday_and_last_weeks_still_pages(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    await lose_daily(fake, running.service, alice)  # Sunday: Alice loses, Bob wins
    await win_daily(fake, running.service, bob)

    sunday = await board(fake, alice, kind="weekly")
    assert title(sunday) == f"Weekly leaderboard · {WEEK_48} · this server"
    assert footer(sunday) == "Page 1 of 2 · 2 players"
    assert rows(sunday) == [(1, bob.id, f"1 1 104 {len(WINNING_LINE)}")]
    for button in sunday.buttons:
        assert button["custom_id"].startswith("reel:lb:") and len(button["custom_id"]) <= 100
        assert ":weekly:server:" in button["custom_id"] and ":20261123:" in button["custom_id"]

    clock.advance(days=1)  # Monday 09:30: week 49, empty
    monday = await board(fake, alice, kind="weekly")
    assert title(monday) == f"Weekly leaderboard · {WEEK_49} · this server"
    assert description(monday) == (
        "No one has finished a daily here this week yet. Play today's with **/reel daily**."
    )
    await win_daily(fake, running.service, alice)
    monday = await board(fake, bob, kind="weekly", scope="global")
    assert title(monday) == f"Weekly leaderboard · {WEEK_49} · global"
    assert [(rank, user) for rank, user, _ in rows(monday)] == [(1, alice.id)]

    # Sunday's message still pages week 48, though the clock is in week 49.
    click = await fake.click(bob, sunday, label="Next ▶")
    assert click.callback_type == UPDATE_MESSAGE and click.edited
    assert title(sunday) == f"Weekly leaderboard · {WEEK_48} · this server"
    assert footer(sunday) == "Page 2 of 2 · 2 players"
    [(rank, user, cells)] = rows(sunday)
    assert (rank, user) == (2, alice.id) and cells.startswith("0 1 ")
    # And any date of week 48 asks for it.
    dated = await board(fake, bob, kind="weekly", date="2026-11-25")
    assert title(dated) == title(sunday) and rows(dated)[0][1] == bob.id

    # The month holds both weeks: Alice has won one and lost one, Bob won one; Alice's
    # cards home over her two dailies put her first.
    month = await board(fake, bob, kind="seasonal")
    assert title(month) == (
        "Seasonal leaderboard · November 2026 (2026-11-01 to 2026-11-30) · this server"
    )
    assert [(rank, user) for rank, user, _ in rows(month)] == [(1, alice.id)]
    assert footer(month) == "Page 1 of 2 · 2 players"


async def test_period_boards_refuse_a_date_to_come_privately(
    fake: FakeDiscord, launch: Launch
) -> None:
    await launch()
    alice = fake.user("alice")
    refused = await private(
        await fake.slash(
            alice, "reel", sub="leaderboard", options={"kind": "seasonal", "date": "2026-12-01"}
        )
    )
    assert description(refused) == (
        "The seasonal board holding 2026-12-01 hasn't started yet (today is 2026-11-29 UTC)."
    )


# --------------------------------------------------------------------------- practice


async def test_a_past_daily_played_for_practice_leaves_the_scores_untouched(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    running = await launch()
    service = running.service
    alice, bob = fake.user("alice"), fake.user("bob")
    await lose_daily(fake, service, alice)  # Sunday's scored daily: lost
    await win_daily(fake, service, bob)
    clock.advance(days=1)

    async def scores() -> tuple[object, ...]:
        return (
            await service.store.finished_games(),
            await service.stats(alice.id),
            await service.leaderboard("daily", "global", day=SUNDAY),
            await service.leaderboard("weekly", "global", day=SUNDAY),
            await service.leaderboard("all-time", "global"),
        )

    before = await scores()
    answer = await public(
        await fake.slash(alice, "reel", sub="daily", options={"date": SUNDAY.isoformat()})
    )
    assert title(answer) == f"Daily challenge · {SUNDAY.isoformat()} · practice"
    text = description(answer)
    assert "Practice of the daily of 2026-11-29: deal 28, not scored" in text
    assert "*Practice:* a past daily played again, not scored and not recorded." in text
    view = await service.show(alice.id)
    for move in WINNING_LINE:
        view = await service.move(alice.id, move, view.version)
    assert view.status is Status.WON and view.practice
    assert await scores() == before  # her loss stands; no win, no game, no streak
    stats = await service.stats(alice.id)
    assert (stats.games, stats.wins, stats.dailies, stats.current_streak) == (1, 0, 1, 1)
    sunday = await board(fake, bob, date=SUNDAY.isoformat(), scope="global")
    assert [user for _, user, _ in rows(sunday)] == [bob.id]  # page 1 of 2: Bob's win
    assert footer(sunday) == "Page 1 of 2 · 2 players"


async def test_practice_asks_before_ending_a_game_and_refuses_bad_dates_privately(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    running = await launch()
    alice = fake.user("alice")
    for typed, said in [
        ("2026-11-29", "2026-11-29 is today: today's daily is the scored one"),
        ("2026-11-30", "The daily of 2026-11-30 hasn't started yet"),
        ("2025-12-31", "The first daily is 2026-01-01"),
        ("29/11/2026", "A date is written YYYY-MM-DD, like 2026-11-29."),
    ]:
        refused = await private(
            await fake.slash(alice, "reel", sub="daily", options={"date": typed})
        )
        assert description(refused).startswith(said)
    assert await running.service.store.load_game(alice.id) is None  # nothing dealt

    await public(await fake.slash(alice, "reel", sub="new", options={"deal": "16"}))
    await running.service.deal(alice.id)
    asked = await private(
        await fake.slash(alice, "reel", sub="daily", options={"date": "2026-11-20"})
    )
    assert "Your game in progress ends, recorded as abandoned." in description(asked)
    assert (await running.service.show(alice.id)).deal_number == 16  # nothing done yet
    [custom_id] = asked.custom_ids
    assert custom_id.startswith("reel:practice:") and custom_id.endswith(":20261120")
    click = await fake.click(alice, asked, label="Practise 2026-11-20")
    shown = await public(click)
    assert title(shown) == "Daily challenge · 2026-11-20 · practice"
    [abandoned] = await running.service.store.finished_games(alice.id)
    assert abandoned.outcome == "abandoned" and abandoned.deal_number == 16
    # A second click finds the practice in progress and shows it: nothing else is dealt.
    again = await public(await fake.click(alice, asked, label="Practise 2026-11-20"))
    assert "Practice of the daily of 2026-11-20: your game in progress" in description(again)
    assert len(await running.service.store.finished_games(alice.id)) == 1
    # Over another game, once that game has moved on, the old question does nothing.
    await public(await fake.slash(alice, "reel", sub="new", options={"deal": "16"}))
    stale = await fake.click(alice, asked, label="Practise 2026-11-20")
    assert "has changed since you were asked" in description(await private(stale))
    assert (await running.service.show(alice.id)).deal_number == 16
