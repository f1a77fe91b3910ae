"""Daily deals proven winnable: the real proof search on one date, the stored proof that
replays to a win, a choice that never changes, the fallback, the par on boards."""

from __future__ import annotations

import asyncio
import logging
import math
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.service.daily_rules as daily_module
from bot.service import GameService, replay
from bot.service.dailies import DailyDeals
from bot.service.daily_rules import DAILY_NODE_BUDGET, find_daily_deal
from bot.store import DailyDeal, Store
from engine import Game, Status
from engine.daily import candidate_numbers, daily_start_number
from engine.solver import SAT_AFTER, Verdict, solve

DAY = date(2026, 1, 2)
USER, OTHER, GUILD = 21, 22, 555


def proven_within_budget(number: int) -> bool:
    solution = solve(
        Game.new(number),
        max_nodes=DAILY_NODE_BUDGET,
        max_seconds=math.inf,
        probe_every_deal=False,  # as the daily's search: the same on every build
    )
    return solution.verdict is Verdict.WON


def test_the_daily_budget_leaves_the_sat_prover_room_to_decide() -> None:
    # the search hands over to the SAT prover well within the daily's budget, which
    # then wins deal 138, a deal the search alone does not win in millions of nodes
    assert SAT_AFTER < DAILY_NODE_BUDGET // 2
    assert proven_within_budget(138)


def test_the_daily_search_is_the_same_on_every_build(monkeypatch: pytest.MonkeyPatch) -> None:
    # The probe at every deal is on by default only where the C loops run, and it
    # changes node counts: the daily's search turns it off, so every build chooses
    # the same deal.
    seen: list[object] = []
    real = solve

    def spy(game: Game, **kwargs: Any) -> Any:
        seen.append(kwargs.get("probe_every_deal"))
        return real(game, **kwargs)

    monkeypatch.setattr(daily_module, "solve", spy)
    deal = find_daily_deal(DAY, candidates=3)
    assert seen and set(seen) == {False}
    assert deal.deal_number in candidate_numbers(DAY, 3) or not deal.proven


def at(day: date) -> Any:
    return lambda: datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


async def test_the_daily_is_the_first_deal_proven_winnable_and_its_line_wins(
    real_daily_search: None, db_path: Path
) -> None:
    store = await Store.open(db_path)
    service = GameService(store, clock=at(DAY))
    searches: list[int] = []
    try:
        view = await service.daily(USER, GUILD)
        deal = await service.daily_deal(DAY)
        # The first hint continues the stored proof: no search.
        hinted = await service.hint(USER, on_search=lambda: searches.append(1))
    finally:
        await service.close()
    assert deal.proven and deal.line is not None and deal.par is not None
    assert searches == [] and hinted.source == "solver" and hinted.remaining == deal.par
    assert hinted.move == deal.line.split(";")[0]
    # After a restart too: the stored proof is the line again.
    store = await Store.open(db_path)
    service = GameService(store, clock=at(DAY))
    try:
        again = await service.hint(USER, on_search=lambda: searches.append(1))
    finally:
        await service.close()
    assert searches == [] and (again.move, again.remaining) == (hinted.move, deal.par)
    candidates = candidate_numbers(DAY, 50)
    assert candidates[0] == daily_start_number(DAY) and deal.deal_number in candidates
    # The first: no earlier candidate is proven within the same node budget.
    earlier = candidates[: candidates.index(deal.deal_number)]
    assert not any(proven_within_budget(n) for n in earlier)
    # The stored proof replays to a win through the engine, and its length is the par.
    game, _ = replay("vr", deal.deal_number, deal.line)
    assert game.status is Status.WON and game.score == 104
    assert deal.par == len(deal.line.split(";")) == game.move_count
    assert (view.deal_number, view.par, view.daily_date) == (deal.deal_number, deal.par, DAY)
    # The same answer computed again, in this process (deterministic: a node budget).
    assert find_daily_deal(DAY) == deal
    async with Store(db_path) as reopened:
        assert await reopened.load_daily_deal(DAY) == deal


async def test_after_a_restart_the_daily_comes_from_the_table(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = DailyDeal(DAY, 28, "R6 ACE;deal", 2)  # whatever the table holds, stays
    async with Store(db_path) as store:
        await store.save_daily_deal(stored)

    async def no_search(self: DailyDeals, day: date, variant: str = "vr") -> DailyDeal:
        raise AssertionError(f"searched again for {day}")

    monkeypatch.setattr(DailyDeals, "find", no_search)
    store = await Store.open(db_path)
    service = GameService(store, clock=at(DAY))
    try:
        view = await service.daily(USER, GUILD)
        assert (view.deal_number, view.par) == (28, 2)
        board = await service.leaderboard("daily", "global")
        assert board.par == 2
        yesterday = await service.leaderboard("daily", "global", day=DAY - timedelta(days=1))
        assert yesterday.par is None  # never dealt: no deal chosen, none searched for
    finally:
        await service.close()
    # A restarted service shows the par on the daily in progress too.
    store = await Store.open(db_path)
    service = GameService(store, clock=at(DAY))
    try:
        assert (await service.show(USER)).par == 2
    finally:
        await service.close()


async def test_concurrent_players_share_one_search(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[date] = []
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow(self: DailyDeals, day: date, variant: str = "vr") -> DailyDeal:
        calls.append(day)
        entered.set()
        await release.wait()
        return DailyDeal(day, 16, "deal", 1)

    monkeypatch.setattr(DailyDeals, "find", slow)
    service = GameService(store, clock=at(DAY))
    first = asyncio.create_task(service.daily(USER, GUILD))
    second = asyncio.create_task(service.daily(OTHER, GUILD))
    await entered.wait()
    for _ in range(20):
        await asyncio.sleep(0)
    assert calls == [DAY] and not first.done() and not second.done()
    release.set()
    views = await asyncio.gather(first, second)
    assert [v.deal_number for v in views] == [16, 16] and calls == [DAY]


async def test_the_bot_warms_tomorrows_daily(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[date] = []

    async def quick(self: DailyDeals, day: date, variant: str = "vr") -> DailyDeal:
        calls.append(day)
        return DailyDeal(day, 16, "deal", 1)

    monkeypatch.setattr(DailyDeals, "find", quick)
    service = GameService(store, clock=at(DAY), warm_next_daily=True)
    await service.daily(USER, GUILD)
    tomorrow = DAY + timedelta(days=1)
    for _ in range(50):
        if await store.load_daily_deal(tomorrow) is not None:
            break
        await asyncio.sleep(0)
    assert calls == [DAY, tomorrow]
    assert await store.load_daily_deal(tomorrow) == DailyDeal(tomorrow, 16, "deal", 1)


def first_unproven_start() -> date:
    """A date whose starting number the solver does not prove within the budget."""
    day = date(2026, 1, 1)
    while proven_within_budget(daily_start_number(day)):
        day += timedelta(days=1)
    return day


def test_with_no_candidate_proven_the_starting_number_stands_unproven() -> None:
    day = first_unproven_start()
    assert find_daily_deal(day, candidates=1) == DailyDeal(day, daily_start_number(day), None, None)


async def test_the_fallback_is_logged_stored_and_dealt(
    real_daily_search: None, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(db_path)
    service = GameService(store, clock=at(DAY), daily_candidates=0)
    try:
        with caplog.at_level(logging.WARNING, logger="bot.service"):
            view = await service.daily(USER, GUILD)
        assert (view.deal_number, view.par) == (daily_start_number(DAY), None)
        assert "no deal proven winnable among 0 candidates" in caplog.text
        assert await store.load_daily_deal(DAY) == DailyDeal(
            DAY, daily_start_number(DAY), None, None
        )
    finally:
        await service.close()
