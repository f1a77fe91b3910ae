"""The daily challenge, leaderboards and stats, through the service with a fake clock."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from known_win import WINNING_DEAL, WINNING_LINE, WINNING_TEXT
from streaks import streaks

from bot.service import (
    MIN_GAMES_FOR_RATE,
    BadInputError,
    Commands,
    DailyInProgressError,
    GameService,
    GameView,
    LeaderboardRow,
    PlayerStats,
)
from bot.service.dailies import DailyDeals
from bot.service.wording import share_text
from bot.store import DailyDeal, FinishedGame, Store
from engine import Game, Status, render
from engine.daily import daily_start_number, utc_date

# Dailies deal 28 (``winnable_dailies``) to be won by its known line: the service
# itself checks that line again, as it records a win only when the engine says WON.

ALICE, BOB, CAROL, DAVE, ERIN = 101, 102, 103, 104, 105
GUILD, OTHER_GUILD = 555, 666
D1 = date(2026, 11, 28)
D2 = date(2026, 11, 29)


async def deal_record(service: GameService, user: int) -> tuple[int, list[FinishedGame]]:
    """The deal of ``user``'s current game, and their finished games of it (recorded)."""
    deal = (await service.show(user)).deal_number
    records = await service.store.finished_games(user)
    return deal, [r for r in records if r.deal_number == deal]


SLASH = Commands(new="/reel new", resign="/reel resign")  # as Discord spells them


def at(day: date, hour: int = 12, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


@pytest.fixture
def winnable_dailies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every daily deals deal 28, whose winning line is known: wins in tests stay cheap."""

    async def deal_28(self: DailyDeals, day: date, variant: str = "vr") -> DailyDeal:
        return DailyDeal(day, WINNING_DEAL, WINNING_TEXT, len(WINNING_LINE))

    monkeypatch.setattr(DailyDeals, "find", deal_28)


async def win(service: GameService, user_id: int) -> GameView:
    """Play the known winning line on the user's current game (deal 28 at its start)."""
    view = await service.show(user_id)
    assert view.deal_number == WINNING_DEAL and view.move_count == 0
    for text in WINNING_LINE:
        view = await service.move(user_id, text, view.version)
    assert view.status is Status.WON and view.finished
    return view


def daily_fields(row: LeaderboardRow) -> tuple[object, ...]:
    return (row.rank, row.user_id, row.won, row.score, row.moves, row.undos)


# ---------------------------------------------------------------------- the pure functions


def test_share_text_says_the_result_and_nothing_of_the_deal() -> None:
    assert share_text(D2, won=True, score=104, moves=112) == (
        "Virginia Reel daily 2026-11-29: won in 112 moves"
    )
    assert share_text(D2, won=False, score=87, moves=1) == (
        "Virginia Reel daily 2026-11-29: 87/104 cards home in 1 move"
    )
    assert share_text(D2, won=True, score=104, moves=110, assisted=True) == (
        "Virginia Reel daily 2026-11-29: won in 110 moves, with a hint"
    )


def test_streaks_count_consecutive_dates() -> None:
    days = [date(2026, 11, n) for n in (1, 2, 3, 5, 6, 7, 8, 20, 21)]
    assert streaks(days, date(2026, 11, 21)) == (2, 4)
    assert streaks(days, date(2026, 11, 22)) == (2, 4)  # yesterday's still counts today
    assert streaks(days, date(2026, 11, 23)) == (0, 4)
    assert streaks([], D2) == (0, 0)
    assert streaks(reversed(days), date(2026, 11, 21)) == (2, 4)


# ---------------------------------------------------------------------- starting and resuming


async def test_daily_deals_todays_deal_and_resumes_it(service: GameService, clock: Any) -> None:
    clock.set(at(D2, 9))
    view = await service.daily(ALICE, GUILD)
    assert (view.deal_number, view.daily_date, view.scored) == (daily_start_number(D2), D2, True)
    assert view.message == f"Daily 2026-11-29 of Virginia Reel: deal {daily_start_number(D2)}"
    assert view.next_daily_at == at(D2 + timedelta(days=1), 0)
    assert (view.share_text, view.finished, view.guild_id) == (None, False, GUILD)
    assert view.board == render(Game.new(daily_start_number(D2)), True)
    moved = await service.deal(ALICE)
    again = await service.daily(ALICE, OTHER_GUILD)
    assert again.message == "Daily 2026-11-29 of Virginia Reel: your game in progress"
    assert (again.version, again.move_count, again.guild_id) == (moved.version, 1, GUILD)
    shown = await service.show(ALICE)
    assert (shown.daily_date, shown.scored) == (D2, True)
    # An ordinary game says it is none.
    plain = await service.new_game(BOB, GUILD, 5)
    assert (plain.daily_date, plain.scored, plain.share_text, plain.next_daily_at) == (
        None, True, None, None,
    )  # fmt: skip


async def test_an_ordinary_game_in_progress_is_recorded_when_the_daily_starts(
    service: GameService, store: Store, clock: Any
) -> None:
    clock.set(at(D2))
    await service.new_game(ALICE, GUILD, 7)
    await service.deal(ALICE)
    view = await service.daily(ALICE, GUILD)
    assert (
        view.message == f"Daily 2026-11-29 of Virginia Reel: deal {daily_start_number(D2)} "
        "(deal 7 recorded as abandoned)"
    )
    [record] = await store.finished_games(ALICE)
    assert (record.deal_number, record.outcome, record.daily_date) == (7, "abandoned", None)


async def test_a_new_game_does_not_end_the_scored_daily_in_play(
    service: GameService, store: Store, clock: Any
) -> None:
    clock.set(at(D2))
    await service.daily(ALICE, GUILD)
    playing = await service.deal(ALICE)
    with pytest.raises(DailyInProgressError) as refused:
        await service.new_game(ALICE, GUILD, 9)
    assert refused.value.text(SLASH) == (
        "Your scored daily of 2026-11-29 is still in play, and a new game now would end it "
        "as abandoned. Finish it first, or give it up with /reel resign and then start a new game."
    )
    shown = await service.show(ALICE)  # the daily as it was, still scored and in play
    assert (shown.version, shown.daily_date, shown.scored, shown.finished) == (
        playing.version, D2, True, False,
    )  # fmt: skip
    assert await store.finished_games(ALICE) == []


async def test_a_new_game_may_replace_a_stuck_scored_daily(
    service: GameService, store: Store, clock: Any
) -> None:
    clock.set(at(D2))
    view = await service.daily(ALICE, GUILD)
    rng = random.Random(5)
    while view.status is Status.PLAYING:  # random moves until none is left
        choices = await service.move_choices(ALICE, limit=100)
        view = await service.move(ALICE, rng.choice(choices).text, view.version)
    assert view.status is Status.STUCK and not view.finished
    left = await service.new_game(ALICE, GUILD, 9)  # the board's New game button
    assert left.message == "New game of Virginia Reel: deal 9 (daily 2026-11-29 recorded as lost)"
    [record] = await store.finished_games(ALICE)
    assert (record.daily_date, record.outcome) == (D2, "lost")


async def test_leaving_the_scored_daily_counts_and_later_ones_are_replays(
    service: GameService, store: Store, clock: Any
) -> None:
    clock.set(at(D2))
    await service.daily(ALICE, GUILD)
    await service.deal(ALICE)
    await service.resign(ALICE)
    left = await service.new_game(ALICE, GUILD, 9)
    assert left.message == "New game of Virginia Reel: deal 9"
    await service.deal(ALICE)
    replay = await service.daily(ALICE, GUILD)
    assert (replay.deal_number, replay.daily_date, replay.scored) == (
        daily_start_number(D2), D2, False,
    )  # fmt: skip
    assert replay.message == (
        f"Daily 2026-11-29 of Virginia Reel (replay, not scored): deal {daily_start_number(D2)} "
        "(deal 9 recorded as abandoned)"
    )
    assert (await service.daily(ALICE, GUILD)).message == (
        "Daily 2026-11-29 of Virginia Reel (replay, not scored): your game in progress"
    )
    over = await service.resign(ALICE)
    assert over.finished and over.share_text is None  # a replay has nothing to share
    another = await service.daily(ALICE, GUILD)
    assert not another.scored
    records = await store.finished_games(ALICE)
    assert [(r.deal_number, r.outcome, r.daily_date) for r in records] == [
        (daily_start_number(D2), "resigned", D2),
        (9, "abandoned", None),
        (daily_start_number(D2), "resigned", None),  # the replay: a normal game
    ]
    board = await service.leaderboard("daily", "global")
    assert [(r.user_id, r.won, r.moves) for r in board.rows] == [(ALICE, False, 1)]


async def test_restarting_the_bot_does_not_reset_the_scored_attempt(
    db_path: Path, clock: Any
) -> None:
    clock.set(at(D2))
    service = GameService(await Store.open(db_path), clock=clock)
    await service.daily(ALICE, GUILD)
    before = await service.deal(ALICE)
    await service.close()
    service = GameService(await Store.open(db_path), clock=clock)
    try:
        resumed = await service.daily(ALICE, GUILD)
        assert (resumed.version, resumed.scored, resumed.move_count) == (before.version, True, 1)
        await service.resign(ALICE)
        await service.new_game(ALICE, GUILD, 3)
        await service.close()
        service = GameService(await Store.open(db_path), clock=clock)
        assert not (await service.daily(ALICE, GUILD)).scored
    finally:
        await service.close()


async def test_resign_ends_the_scored_daily_with_a_line_to_share(
    service: GameService, clock: Any
) -> None:
    clock.set(at(D2))
    start = await service.daily(ALICE, None)
    await service.deal(ALICE)
    await service.undo(ALICE)
    await service.deal(ALICE)
    view = await service.resign(ALICE)
    assert view.finished and view.scored and view.daily_date == D2
    assert view.share_text == (
        f"Virginia Reel daily 2026-11-29: {start.score}/104 cards home in 1 move"
    )
    assert (await service.show(ALICE)).share_text == view.share_text
    [row] = (await service.leaderboard("daily", "global")).rows
    assert daily_fields(row) == (1, ALICE, False, start.score, 1, 1)
    assert row.seconds is not None and row.seconds > 0
    assert (row.wins, row.games, row.win_rate, row.best_streak) == (None, None, None, None)


async def test_a_won_daily_counts_its_undos_and_shares_the_win(
    service: GameService, store: Store, clock: Any, winnable_dailies: None
) -> None:
    clock.set(at(D2))
    await service.daily(ALICE, GUILD)
    await service.move(ALICE, "r6 ace")
    await service.undo(ALICE)
    view = await win(service, ALICE)
    assert view.share_text == f"Virginia Reel daily 2026-11-29: won in {len(WINNING_LINE)} moves"
    [row] = (await service.leaderboard("daily", "server", GUILD)).rows
    assert daily_fields(row) == (1, ALICE, True, 104, len(WINNING_LINE), 1)
    stats = await service.stats(ALICE)
    assert (stats.dailies, stats.daily_wins, stats.wins, stats.games) == (1, 1, 1, 1)


# ---------------------------------------------------------------------- midnight


async def test_a_daily_started_before_midnight_counts_for_its_date(
    service: GameService, store: Store, clock: Any
) -> None:
    clock.set(at(D1, 23, 59))
    view = await service.daily(ALICE, GUILD)
    assert view.daily_date == D1 and view.next_daily_at == at(D2, 0)
    await service.deal(ALICE)
    clock.set(at(D2, 0, 1))
    over = await service.resign(ALICE)
    assert over.daily_date == D1
    assert over.share_text is not None and "daily 2026-11-28" in over.share_text
    [record] = await store.finished_games(ALICE)
    assert record.daily_date == D1 and record.finished_at > at(D2, 0)
    assert [r.user_id for r in (await service.leaderboard("daily", "global", day=D1)).rows] == [
        ALICE
    ]
    assert (await service.leaderboard("daily", "global")).rows == ()  # today is D2
    # After midnight, daily() deals the new date's deal, scored.
    new = await service.daily(ALICE, GUILD)
    assert (new.deal_number, new.daily_date, new.scored) == (daily_start_number(D2), D2, True)


async def test_yesterdays_daily_still_open_after_midnight_is_recorded_for_yesterday(
    service: GameService, store: Store, clock: Any
) -> None:
    clock.set(at(D1, 23, 59))
    await service.daily(ALICE, GUILD)
    clock.set(at(D2, 0, 1))
    view = await service.daily(ALICE, GUILD)  # not a resume: another date
    assert (view.daily_date, view.scored, view.move_count) == (D2, True, 0)
    assert view.message is not None and view.message.endswith(
        "(daily 2026-11-28 recorded as abandoned)"
    )
    [record] = await store.finished_games(ALICE)
    assert (record.daily_date, record.outcome) == (D1, "abandoned")
    assert (await service.stats(ALICE)).current_streak == 1


# ---------------------------------------------------------------------- streaks over a month


async def test_a_scripted_month_of_dailies_keeps_streaks(
    service: GameService, store: Store, clock: Any, winnable_dailies: None
) -> None:
    start = date(2026, 10, 1)
    # Day numbers (1-based) on which Alice plays her daily, and how.
    plays: dict[int, str] = {
        1: "resign", 2: "win", 3: "resign",                # a run of 3
        5: "resign", 6: "leave", 7: "resign", 8: "replay", 9: "resign",  # a run of 5
        12: "win",                                          # a run of 1
        20: "open", 21: "resign", 22: "resign", 23: "resign",  # 20 is left open overnight
    }  # fmt: skip
    expected: dict[int, tuple[int, int]] = {  # after the day's play (current, best)
        1: (1, 1), 3: (3, 3), 4: (3, 3), 5: (1, 3), 9: (5, 5), 10: (5, 5), 11: (0, 5),
        12: (1, 5), 19: (0, 5), 21: (2, 5), 23: (4, 5), 24: (4, 5), 25: (0, 5), 30: (0, 5),
    }  # fmt: skip
    for n in range(1, 31):
        day = start + timedelta(days=n - 1)
        clock.set(at(day, 18))
        how = plays.get(n)
        if how is not None:
            view = await service.daily(ALICE, GUILD)
            if n == 21:  # the daily of day 20, still open, was recorded for day 20
                assert view.message is not None and "(daily 2026-10-20 recorded" in view.message
            assert (view.daily_date, view.scored) == (day, True)
            if how == "win":
                await win(service, ALICE)
            elif how == "leave":
                await service.deal(ALICE)
                with pytest.raises(DailyInProgressError):
                    await service.new_game(ALICE, OTHER_GUILD, 77)
                await service.resign(ALICE)
                await service.new_game(ALICE, OTHER_GUILD, 77)
                await service.resign(ALICE)
            elif how == "replay":
                await service.resign(ALICE)
                replay = await service.daily(ALICE, GUILD)
                assert not replay.scored
                await win(service, ALICE)  # a won replay counts as a win, not as a daily
            elif how == "resign":
                await service.resign(ALICE)
        if n in expected:
            stats = await service.stats(ALICE)
            assert (stats.current_streak, stats.best_streak) == expected[n], f"day {n}"
    stats = await service.stats(ALICE)
    deal, of_deal = await deal_record(service, ALICE)
    assert stats == PlayerStats(
        user_id=ALICE,
        games=15,  # 13 dailies, the ordinary game of day 6, the replay of day 8
        wins=3,
        win_rate=3 / 15,
        current_streak=0,
        best_streak=5,
        best_score=104,
        dailies=13,
        daily_wins=2,
        deal_number=deal,
        deal_games=len(of_deal),
        deal_wins=sum(r.won for r in of_deal),
    )
    board = await service.leaderboard("all-time", "global")
    assert [(r.user_id, r.wins, r.games, r.best_streak) for r in board.rows] == [(ALICE, 3, 15, 5)]
    assert board.rows[0].win_rate == pytest.approx(0.2)
    # Each date's daily board holds exactly the day's scored attempt.
    for n in range(1, 31):
        day = start + timedelta(days=n - 1)
        rows = (await service.leaderboard("daily", "server", GUILD, day=day)).rows
        assert [r.user_id for r in rows] == ([ALICE] if n in plays else []), f"day {n}"
    records = await store.finished_games(ALICE)
    assert sorted(r.daily_date for r in records if r.daily_date) == [
        start + timedelta(days=n - 1) for n in sorted(plays)
    ]


# ---------------------------------------------------------------------- ranking


async def test_the_daily_ranks_won_then_cards_home_then_fewer_moves_then_earlier_finish(
    service: GameService, clock: Any, winnable_dailies: None
) -> None:
    clock.set(at(D2, 8))
    for user in (ALICE, BOB, CAROL, DAVE, ERIN):
        await service.daily(user, GUILD)
    # Erin: lowest score (nothing played), finishes first.
    base = await service.resign(ERIN)
    # Dave: one Ace home, two moves (a deal, then an Ace). Carol: one Ace home in one move,
    # finishing after Bob who does the same.
    await service.deal(DAVE)
    await service.move(DAVE, "b5 ace")
    await service.resign(DAVE)
    await service.move(BOB, "b5 ace")
    await service.resign(BOB)
    await service.move(CAROL, "b5 ace")
    await service.resign(CAROL)
    # Alice wins, last of all.
    await win(service, ALICE)
    page = await service.leaderboard("daily", "server", GUILD)
    assert [daily_fields(r) for r in page.rows] == [
        (1, ALICE, True, 104, len(WINNING_LINE), 0),
        (2, BOB, False, base.score + 1, 1, 0),
        (3, CAROL, False, base.score + 1, 1, 0),
        (4, DAVE, False, base.score + 1, 2, 0),
        (5, ERIN, False, base.score, 0, 0),
    ]
    assert (page.kind, page.scope, page.guild_id, page.day) == ("daily", "server", GUILD, D2)
    assert (page.page, page.page_count, page.total) == (0, 1, 5)


async def test_all_time_ranks_wins_then_rate_then_games_with_a_minimum_for_the_rate(
    service: GameService, clock: Any
) -> None:
    clock.set(at(D2))

    async def games(user: int, wins: int, losses: int, guild: int | None = GUILD) -> None:
        for _ in range(wins):
            await service.new_game(user, guild, WINNING_DEAL)
            await win(service, user)
        for _ in range(losses):
            await service.new_game(user, guild, 5)
            await service.resign(user)

    assert MIN_GAMES_FOR_RATE == 5
    await games(ALICE, 2, 3)  # 2 wins of 5: rate 0.4
    await games(BOB, 2, 0)  # 2 wins of 2: too few games for a rate
    await games(CAROL, 2, 6)  # 2 wins of 8: rate 0.25
    await games(DAVE, 0, 1)
    await games(ERIN, 0, 3)  # same wins as Dave (none), more games
    page = await service.leaderboard("all-time", "server", GUILD)
    assert [(r.rank, r.user_id, r.wins, r.games, r.win_rate) for r in page.rows] == [
        (1, ALICE, 2, 5, 0.4),
        (2, CAROL, 2, 8, 0.25),
        (3, BOB, 2, 2, None),
        (4, ERIN, 0, 3, None),
        (5, DAVE, 0, 1, None),
    ]
    assert all(r.won is None and r.moves is None and r.best_streak == 0 for r in page.rows)


# ---------------------------------------------------------------------- scopes


async def test_server_boards_count_games_credited_to_the_server(
    service: GameService, clock: Any, winnable_dailies: None
) -> None:
    clock.set(at(D2))
    # Alice plays her scored daily in GUILD, then a replay and ordinary games in OTHER_GUILD.
    await service.daily(ALICE, GUILD)
    await service.resign(ALICE)
    await service.daily(ALICE, OTHER_GUILD)
    await win(service, ALICE)
    await service.new_game(ALICE, OTHER_GUILD, 5)
    await service.resign(ALICE)
    # Bob plays in OTHER_GUILD, Carol in a DM.
    await service.daily(BOB, OTHER_GUILD)
    await service.resign(BOB)
    await service.daily(CAROL, None)
    await win(service, CAROL)

    async def users(kind: str, scope: str, guild: int | None = None) -> list[int]:
        page = await service.leaderboard(kind, scope, guild)  # type: ignore[arg-type]
        return [row.user_id for row in page.rows]

    assert await users("daily", "server", GUILD) == [ALICE]
    assert await users("daily", "server", OTHER_GUILD) == [BOB]  # Alice's replay is not there
    assert await users("daily", "global") == [CAROL, ALICE, BOB]
    assert await users("all-time", "server", GUILD) == [ALICE]
    assert await users("all-time", "server", OTHER_GUILD) == [ALICE, BOB]
    assert await users("all-time", "global") == [ALICE, CAROL, BOB]
    here = await service.leaderboard("all-time", "server", OTHER_GUILD)
    assert [(r.wins, r.games) for r in here.rows] == [(1, 2), (0, 1)]
    everywhere = await service.leaderboard("all-time", "global", GUILD)
    assert everywhere.guild_id is None  # a global page names no server
    assert [(r.wins, r.games) for r in everywhere.rows] == [(1, 3), (1, 1), (0, 1)]
    assert await users("all-time", "server", 999) == []


# ---------------------------------------------------------------------- paging and input


@pytest.fixture
async def crowd(service: GameService, clock: Any) -> AsyncIterator[GameService]:
    """25 players who each resigned today's daily at once, in user order."""
    clock.set(at(D2))
    for user in range(1, 26):
        await service.daily(user, GUILD)
        await service.resign(user)
    yield service


async def test_pages_of_a_leaderboard(crowd: GameService) -> None:
    first = await crowd.leaderboard("daily", "server", GUILD)
    assert (first.page, first.page_count, first.total, len(first.rows)) == (0, 3, 25, 10)
    assert [r.rank for r in first.rows] == list(range(1, 11))
    third = await crowd.leaderboard("daily", "server", GUILD, page=2)
    assert (third.page, third.page_count, third.total) == (2, 3, 25)
    assert [(r.rank, r.user_id) for r in third.rows] == [(n, n) for n in range(21, 26)]
    past = await crowd.leaderboard("daily", "server", GUILD, page=9)
    assert past == third  # a page past the end gives the last one
    big = await crowd.leaderboard("all-time", "global", page_size=25)
    assert (big.page_count, len(big.rows)) == (1, 25)
    empty = await crowd.leaderboard("daily", "server", OTHER_GUILD)
    assert (empty.page, empty.page_count, empty.total, empty.rows) == (0, 1, 0, ())


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ({"kind": "daily", "scope": "server"}, "Server leaderboards need a server"),
        ({"kind": "all-time", "scope": "server"}, "Server leaderboards need a server"),
        ({"kind": "monthly", "scope": "global"}, "There is no 'monthly' leaderboard"),
        ({"kind": "daily", "scope": "galaxy"}, "There is no 'galaxy' scope"),
        ({"kind": "daily", "scope": "global", "page": -1}, "There is no page -1"),
        ({"kind": "daily", "scope": "global", "page_size": 0}, "A page holds 1 to 50 rows"),
        ({"kind": "daily", "scope": "global", "page_size": 51}, "A page holds 1 to 50 rows"),
        (
            {"kind": "daily", "scope": "global", "day": date(2026, 11, 30)},
            "The daily of 2026-11-30 hasn't started yet",
        ),
        ({"kind": "all-time", "scope": "global", "day": D1}, "A date goes with the daily, weekly"),
    ],
)
async def test_bad_leaderboard_requests_are_refused_clearly(
    crowd: GameService, call: dict[str, Any], message: str
) -> None:
    with pytest.raises(BadInputError, match=message):
        await crowd.leaderboard(**call)


# ---------------------------------------------------------------------- stats


async def test_stats_of_a_new_player_are_zero(service: GameService) -> None:
    assert await service.stats(ALICE) == PlayerStats(ALICE, 0, 0, 0.0, 0, 0, 0, 0, 0)


async def test_stats_agree_with_the_recorded_games(
    service: GameService, store: Store, clock: Any
) -> None:
    rng = random.Random(5)
    day = date(2026, 9, 1)
    for _ in range(40):  # a random mix of dailies, replays and ordinary games over days
        day += timedelta(days=rng.choice((0, 1, 1, 2)))
        clock.set(at(day, rng.randrange(24)))
        if rng.random() < 0.6:
            await service.daily(ALICE, rng.choice((GUILD, OTHER_GUILD, None)))
        else:
            deal = rng.randint(1, 1000)
            try:
                await service.new_game(ALICE, GUILD, deal)
            except DailyInProgressError:  # a scored daily in play ends only by a resign
                await service.resign(ALICE)
                await service.new_game(ALICE, GUILD, deal)
        for _ in range(rng.randrange(3)):
            await service.deal(ALICE)
        if rng.random() < 0.7:
            await service.resign(ALICE)
    records = await store.finished_games(ALICE)
    today = utc_date(clock.now)
    days = [r.daily_date for r in records if r.daily_date is not None]
    current, best = streaks(days, today)
    stats = await service.stats(ALICE)
    deal, of_deal = await deal_record(service, ALICE)
    assert stats == PlayerStats(
        user_id=ALICE,
        games=len(records),
        wins=0,
        win_rate=0.0,
        current_streak=current,
        best_streak=best,
        best_score=max(r.score for r in records),
        dailies=len(days),
        daily_wins=0,
        deal_number=deal,
        deal_games=len(of_deal),
        deal_wins=0,
    )
    assert stats.dailies > 5 and best > 1  # the mix really had dailies and a streak
