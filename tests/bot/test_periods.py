"""Weekly and seasonal leaderboards, and practice of a past daily, through the service."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from known_win import WINNING_DEAL, WINNING_LINE, WINNING_TEXT

from bot.service import (
    BadInputError,
    DailyInProgressError,
    GameService,
    GameView,
    NoGameError,
    StaleVersionError,
)
from bot.service.dailies import DailyDeals
from bot.service.periods import month_bounds, period_bounds, period_name, week_bounds
from bot.service.practice import FIRST_DAILY
from bot.store import DailyDeal, Store, finished_params
from bot.store.records import FinishedGame
from engine import Status

ALICE, BOB, CAROL = 101, 102, 103
GUILD, OTHER_GUILD = 555, 666
SUNDAY = date(2026, 11, 29)  # the last day of ISO week 48 of 2026
MONDAY = date(2026, 11, 30)  # the first of week 49


def at(day: date, hour: int = 12) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=UTC)


class StillClock:
    """A clock standing where the test puts it."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def still() -> StillClock:
    return StillClock(at(MONDAY))


@pytest.fixture
async def boards(store: Store, still: StillClock) -> AsyncIterator[GameService]:
    service = GameService(store, clock=still, rng=random.Random(7))
    yield service
    await service.close()


def result(
    user: int,
    day: date | None,
    *,
    won: bool = False,
    score: int = 50,
    moves: int = 80,
    guild: int | None = GUILD,
    assisted: bool = False,
) -> dict[str, object]:
    """A finished game's row as ``Store.import_results`` takes it (a scored daily of
    ``day``; an ordinary game or a replay with ``day`` None)."""
    when = at(day or MONDAY)
    game = FinishedGame(
        user_id=user,
        guild_id=guild,
        variant="vr",
        deal_number=16,
        outcome="won" if won else "resigned",
        score=104 if won else score,
        moves=";".join(["deal"] * moves),
        undos=0,
        duration_s=60,
        started_at=when,
        finished_at=when,
        daily_date=day,
        assisted=assisted,
    )
    return finished_params(game)


# ---------------------------------------------------------------------- the periods


def test_a_week_is_monday_to_sunday_and_a_month_its_calendar_days() -> None:
    assert week_bounds(SUNDAY) == (date(2026, 11, 23), SUNDAY)
    assert week_bounds(MONDAY) == (MONDAY, date(2026, 12, 6))
    # ISO week 1 of 2026 starts on Monday 2025-12-29 (it holds the year's first Thursday).
    assert week_bounds(date(2026, 1, 1)) == (date(2025, 12, 29), date(2026, 1, 4))
    assert period_name("weekly", date(2026, 1, 1)) == "Week 1 of 2026 (2025-12-29 to 2026-01-04)"
    # 2027-01-01 is a Friday: still week 53 of 2026.
    assert period_name("weekly", date(2027, 1, 1)) == "Week 53 of 2026 (2026-12-28 to 2027-01-03)"
    assert month_bounds(date(2028, 2, 10)) == (date(2028, 2, 1), date(2028, 2, 29))
    assert month_bounds(date(2026, 2, 28)) == (date(2026, 2, 1), date(2026, 2, 28))
    assert month_bounds(date(2026, 12, 31)) == (date(2026, 12, 1), date(2026, 12, 31))
    assert period_name("seasonal", SUNDAY) == "November 2026 (2026-11-01 to 2026-11-30)"


@given(st.dates(min_value=date(1970, 1, 1), max_value=date(2999, 12, 31)))
def test_every_date_lies_in_one_week_of_seven_days_and_one_month(day: date) -> None:
    first, last = week_bounds(day)
    assert first.weekday() == 0 and last - first == timedelta(days=6)
    assert first <= day <= last
    assert first.isocalendar()[:2] == day.isocalendar()[:2]  # the same ISO week
    start, end = month_bounds(day)
    assert start.day == 1 and (start.year, start.month) == (day.year, day.month)
    assert start <= day <= end and (end + timedelta(days=1)).day == 1
    assert period_bounds("weekly", day) == (first, last)
    assert period_bounds("seasonal", day) == (start, end)


# ---------------------------------------------------------------------- the boards


async def test_the_weekly_board_sums_the_scored_dailies_of_its_week_only(
    store: Store, boards: GameService
) -> None:
    await store.import_results(
        [
            # Sunday of week 48: counts for week 48, not week 49.
            result(ALICE, SUNDAY, won=True, moves=100),
            result(BOB, SUNDAY, score=90),
            # Week 49.
            result(BOB, MONDAY, won=True, moves=110),
            result(BOB, MONDAY + timedelta(days=1), score=60, moves=70),
            result(CAROL, MONDAY, won=True, moves=105, assisted=True),
            result(CAROL, MONDAY + timedelta(days=6), score=30, guild=OTHER_GUILD),
            # Games that are not scored dailies never count: an ordinary game, a replay.
            result(ALICE, None, won=True),
            result(ALICE, None, won=True),
        ]
    )
    page = await boards.leaderboard("weekly", "global")
    assert (page.day, page.last_day, page.today) == (MONDAY, date(2026, 12, 6), True)
    assert [(r.rank, r.user_id) for r in page.rows] == [(1, BOB), (2, CAROL)]
    # Equal wins: more cards home in all first (Bob 104 + 60 beats Carol 104 + 30).
    assert [(r.user_id, r.wins, r.games, r.score, r.moves) for r in page.rows] == [
        (BOB, 1, 2, 164, 180),
        (CAROL, 1, 2, 134, 185),
    ]
    assert page.rows[1].assisted and not page.rows[0].assisted
    # The server's board counts only the games credited to it.
    here = await boards.leaderboard("weekly", "server", GUILD)
    assert [(r.user_id, r.games, r.score) for r in here.rows] == [(BOB, 2, 164), (CAROL, 1, 104)]
    # Last week's board, by any date of it: Alice's win beats Bob's 90 cards.
    last = await boards.leaderboard("weekly", "global", day=SUNDAY - timedelta(days=3))
    assert (last.day, last.last_day, last.today) == (date(2026, 11, 23), SUNDAY, False)
    assert [(r.user_id, r.wins, r.score) for r in last.rows] == [(ALICE, 1, 104), (BOB, 0, 90)]


async def test_the_seasonal_board_is_the_calendar_month(store: Store, boards: GameService) -> None:
    await store.import_results(
        [
            result(ALICE, date(2026, 11, 1), won=True),
            result(ALICE, SUNDAY, won=True),
            result(BOB, date(2026, 11, 30), won=True),
            result(BOB, MONDAY + timedelta(days=1), won=True),  # December
            result(CAROL, date(2026, 10, 31), won=True),  # October
        ]
    )
    november = await boards.leaderboard("seasonal", "global", day=SUNDAY)
    assert (november.day, november.last_day) == (date(2026, 11, 1), date(2026, 11, 30))
    assert [(r.user_id, r.wins) for r in november.rows] == [(ALICE, 2), (BOB, 1)]
    current = await boards.leaderboard("seasonal", "global")  # the clock: Monday 2026-11-30
    assert (current.day, current.today) == (date(2026, 11, 1), True)
    assert [r.user_id for r in current.rows] == [ALICE, BOB]
    october = await boards.leaderboard("seasonal", "global", day=MONDAY - timedelta(days=30))
    assert [r.user_id for r in october.rows] == [CAROL]  # October 31st: October's board


async def test_period_boards_page_like_the_others_and_refuse_what_cant_be_shown(
    store: Store, boards: GameService
) -> None:
    await store.import_results([result(1000 + n, MONDAY, score=n) for n in range(7)])
    last = await boards.leaderboard("weekly", "global", page=5, page_size=3)
    assert (last.page, last.page_count, last.total) == (2, 3, 7)
    assert [r.rank for r in last.rows] == [7]
    with pytest.raises(BadInputError, match="hasn't started yet"):
        await boards.leaderboard("weekly", "global", day=MONDAY + timedelta(days=1))
    with pytest.raises(BadInputError, match="need a server"):
        await boards.leaderboard("seasonal", "server", None)
    empty = await boards.leaderboard("seasonal", "server", OTHER_GUILD)
    assert (empty.total, empty.rows, empty.page_count) == (0, (), 1)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([ALICE, BOB, CAROL]),
            st.integers(0, 20),  # days after 2026-11-16 (weeks 47 to 49)
            st.booleans(),
            st.integers(0, 104),
            st.integers(1, 150),
        ),
        max_size=20,
        unique_by=lambda t: (t[0], t[1]),
    )
)
async def test_a_weekly_board_ranks_as_its_rule_says(
    tmp_path_factory: pytest.TempPathFactory,
    games: list[tuple[int, int, bool, int, int]],
) -> None:
    path = tmp_path_factory.mktemp("weeks") / "reel.db"
    start = date(2026, 11, 16)
    async with await Store.open(path) as store:
        rows = [
            result(u, start + timedelta(days=d), won=w, score=s, moves=m) for u, d, w, s, m in games
        ]
        await store.import_results(rows)
        service = GameService(store, clock=StillClock(at(date(2026, 12, 6))))
        try:
            for week in range(3):
                day = start + timedelta(days=7 * week)
                page = await service.leaderboard("weekly", "global", day=day, page_size=50)
                expected: dict[int, list[int]] = {}
                for u, d, w, s, m in games:
                    if 7 * week <= d < 7 * week + 7:
                        sums = expected.setdefault(u, [0, 0, 0, 0])
                        sums[0] += w
                        sums[1] += 1
                        sums[2] += 104 if w else s
                        sums[3] += m
                order = sorted(
                    expected,
                    key=lambda u: (
                        -expected[u][0],
                        -expected[u][2],
                        expected[u][3],
                        -expected[u][1],
                        u,
                    ),
                )
                assert [r.user_id for r in page.rows] == order
                assert [[r.wins, r.games, r.score, r.moves] for r in page.rows] == [
                    expected[u] for u in order
                ]
        finally:
            await service.close()


# ---------------------------------------------------------------------- practice


@pytest.fixture
def winnable_dailies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every daily deals deal 28, whose winning line is known: wins stay cheap."""

    async def deal_28(self: DailyDeals, day: date, variant: str = "vr") -> DailyDeal:
        return DailyDeal(day, WINNING_DEAL, WINNING_TEXT, len(WINNING_LINE))

    monkeypatch.setattr(DailyDeals, "find", deal_28)


async def win(service: GameService, user_id: int) -> GameView:
    view = await service.show(user_id)
    assert view.deal_number == WINNING_DEAL and view.move_count == 0
    for text in WINNING_LINE:
        view = await service.move(user_id, text, view.version)
    assert view.status is Status.WON and view.finished
    return view


async def everything_counted(service: GameService, day: date) -> tuple[object, ...]:
    """Every figure a result could touch: results, totals, streaks, the boards."""
    store = service.store
    return (
        await store.finished_games(),
        await store.player_totals(ALICE),
        await service.stats(ALICE),
        await service.leaderboard("daily", "global", day=day),
        await service.leaderboard("weekly", "global", day=day),
        await service.leaderboard("seasonal", "global", day=day),
        await service.leaderboard("all-time", "global"),
    )


async def test_a_past_daily_played_for_practice_leaves_every_score_untouched(
    boards: GameService, still: StillClock, winnable_dailies: None
) -> None:
    still.now = at(SUNDAY)
    await boards.daily(ALICE, GUILD)
    await boards.resign(ALICE)  # Sunday's scored daily: 0 cards, a streak of 1
    still.now = at(MONDAY)
    before = await everything_counted(boards, SUNDAY)
    stats = await boards.stats(ALICE)
    assert (stats.dailies, stats.current_streak, stats.games) == (1, 1, 1)
    view = await boards.practice.start(ALICE, GUILD, SUNDAY)
    assert (view.daily_date, view.scored, view.practice) == (SUNDAY, False, True)
    assert view.message is not None and view.message.startswith(
        "Practice of the daily of 2026-11-29: deal 28, not scored"
    )
    won = await win(boards, ALICE)
    assert won.practice and won.share_text is None
    assert await everything_counted(boards, SUNDAY) == before
    # Today's daily is still the scored one, and counts (the streak goes on).
    today = await boards.daily(ALICE, GUILD)
    assert today.scored and not today.practice and today.daily_date == MONDAY
    await win(boards, ALICE)
    stats = await boards.stats(ALICE)
    assert (stats.dailies, stats.daily_wins, stats.current_streak, stats.games) == (2, 1, 2, 2)


async def test_practice_left_unfinished_or_resigned_is_never_recorded_even_after_a_restart(
    db_path: Path, boards: GameService, still: StillClock
) -> None:
    still.now = at(MONDAY)
    view = await boards.practice.start(ALICE, None, SUNDAY)
    view = await boards.deal(ALICE, view.version)
    store = await Store.open(db_path)  # a restart: the game is read from its row
    again = GameService(store, clock=still)
    try:
        resumed = await again.practice.start(ALICE, None, SUNDAY)
        assert resumed.practice and resumed.move_count == view.move_count
        assert resumed.message is not None and resumed.message.endswith("your game in progress")
        other = await again.practice.start(ALICE, None, SUNDAY - timedelta(days=1))
        assert other.daily_date == SUNDAY - timedelta(days=1) and other.practice
        await again.deal(ALICE)
        await again.resign(ALICE)
        await again.new_game(ALICE, None, 16)
        assert await store.finished_games() == []
        assert await store.player_totals(ALICE) is None
    finally:
        await again.close()


async def test_practice_refuses_today_the_future_and_before_the_first_daily(
    boards: GameService, still: StillClock
) -> None:
    still.now = at(MONDAY, 23)
    for day, why in [
        (MONDAY, "is today: today's daily is the scored one"),
        (MONDAY + timedelta(days=1), "hasn't started yet"),
        (FIRST_DAILY - timedelta(days=1), "The first daily is 2026-01-01"),
    ]:
        with pytest.raises(BadInputError, match=why):
            await boards.practice.start(ALICE, GUILD, day)
    with pytest.raises(NoGameError):
        await boards.show(ALICE)  # nothing was dealt
    first = await boards.practice.start(ALICE, GUILD, FIRST_DAILY)
    assert first.practice and first.daily_date == FIRST_DAILY


async def test_practice_replaces_a_game_as_a_new_game_does_but_never_a_scored_daily(
    boards: GameService, still: StillClock
) -> None:
    still.now = at(MONDAY)
    game = await boards.new_game(ALICE, GUILD, 16)
    game = await boards.deal(ALICE, game.version)
    with pytest.raises(StaleVersionError):
        await boards.practice.start(ALICE, GUILD, SUNDAY, replaces_version=game.version - 1)
    view = await boards.practice.start(ALICE, GUILD, SUNDAY, replaces_version=game.version)
    assert view.practice and "(deal 16 recorded as abandoned)" in (view.message or "")
    [abandoned] = await boards.store.finished_games(ALICE)
    assert (abandoned.deal_number, abandoned.outcome) == (16, "abandoned")
    daily = await boards.daily(ALICE, GUILD)  # over a practice: nothing recorded
    assert "recorded" not in (daily.message or "")
    await boards.deal(ALICE, daily.version)
    with pytest.raises(DailyInProgressError):
        await boards.practice.start(ALICE, GUILD, SUNDAY)
    assert len(await boards.store.finished_games(ALICE)) == 1
