"""The setting for winnable deals: a random new game is the first deal from a random
number on that the solver proves winnable, searched off the event loop."""

from __future__ import annotations

import logging
import random
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

import bot.service.jobs as jobs_module
from bot.service import DailyInProgressError, GameService, Settings, StaleVersionError
from bot.service.daily_rules import WINNABLE_NODE_BUDGET, first_proven
from bot.store import Store
from engine import Game, Move
from engine.daily import numbers_from
from engine.solver import Verdict, solve

USER, GUILD = 21, 555


class Drawn(random.Random):
    """A generator whose random deal number is ``number``."""

    def __init__(self, number: int) -> None:
        super().__init__(0)
        self.number = number

    def randint(self, a: int, b: int) -> int:
        return self.number


def proven(number: int) -> bool:
    solution = solve(Game.new(number), max_nodes=WINNABLE_NODE_BUDGET, max_seconds=60)
    return solution.verdict is Verdict.WON


async def test_a_random_game_is_the_first_deal_proven_winnable(store: Store, clock: Any) -> None:
    # Deal 14 is lost, 15 is not decided within the budget, 16 is proven.
    assert [proven(n) for n in (14, 15, 16)] == [False, False, True]
    service = GameService(store, clock=clock, rng=Drawn(14), executor=ThreadPoolExecutor(1))
    try:
        plain = await service.new_game(USER, GUILD)
        assert plain.deal_number == 14 and "winnable" not in str(plain.message)  # off by default
        settings = await service.update_settings(USER, winnable=True)
        assert settings.winnable and (await service.get_settings(USER)).winnable
        view = await service.new_game(USER, GUILD)
        assert view.deal_number == 16
        assert view.message == "New game of Virginia Reel: deal 16 · proven winnable"
        # The proof is kept: the first hint continues it, with no search.
        searched: list[int] = []
        hinted = await service.hint(USER, on_search=lambda: searched.append(1))
        assert searched == [] and hinted.source == "solver" and hinted.move is not None
        line = solve(Game.new(16), max_nodes=WINNABLE_NODE_BUDGET, max_seconds=60).line
        assert hinted.move == str(line[0]) and hinted.remaining == len(line)
        # After a restart too: the proof is stored with the game.
        pool = ThreadPoolExecutor(1)
        restarted = GameService(store, clock=clock, executor=pool)  # the same database
        try:
            again = await restarted.hint(USER, on_search=lambda: searched.append(1))
            assert searched == [] and again.move == hinted.move
        finally:
            pool.shutdown()
        # A deal asked for by number is that deal, whatever the setting; the setting has
        # the solver's verdict on it said at once (deal 5 is lost).
        chosen = await service.new_game(USER, GUILD, 5)
        assert chosen.deal_number == 5 and chosen.message == (
            "New game of Virginia Reel: deal 5 · the solver has proven this deal can't be won: "
            "try another for a win"
        )
        assert solve(Game.new(5), max_seconds=60).verdict is Verdict.UNWINNABLE
        searched.clear()
        lost = await service.hint(USER, on_search=lambda: searched.append(1))
        assert lost.source == "lost" and searched == []  # known from the deal
        won = await service.new_game(USER, GUILD, 16)
        # a win proven: its line is the hint's
        assert won.message == "New game of Virginia Reel: deal 16"
        first = await service.hint(USER, on_search=lambda: searched.append(1))
        assert first.source == "solver" and searched == []
    finally:
        await service.close()


async def test_the_setting_is_kept_in_the_database(store: Store, clock: Any) -> None:
    first = GameService(store, clock=clock)
    await first.update_settings(USER, winnable=True)
    second = GameService(store, clock=clock)  # a restart: nothing in memory
    assert (await second.get_settings(USER)).winnable
    assert not (await second.get_settings(USER + 1)).winnable


async def test_without_the_solver_the_game_is_dealt_and_says_it_is_unproven(
    store: Store, clock: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(
        start: int, candidates: int, variant: str = "vr"
    ) -> tuple[int, tuple[Move, ...]] | None:
        raise BrokenProcessPool("a worker died")

    monkeypatch.setattr(jobs_module, "winnable_job", broken)
    service = GameService(store, clock=clock, rng=Drawn(4), executor=ThreadPoolExecutor(1))
    try:
        await service.update_settings(USER, winnable=True)
        with caplog.at_level(logging.ERROR, logger="bot.service"):
            view = await service.new_game(USER, GUILD)
        assert view.deal_number == 4
        assert view.message == (
            "New game of Virginia Reel: deal 4 · no deal could be proven winnable just now, "
            "so this one may not be"
        )
        assert "winnable deal failed in the solver pool" in caplog.text
    finally:
        await service.close()


async def test_a_refused_new_game_searches_no_deal(
    store: Store, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched: list[int] = []

    def counted(
        start: int, candidates: int, variant: str = "vr"
    ) -> tuple[int, tuple[Move, ...]] | None:
        searched.append(start)
        return None

    monkeypatch.setattr(jobs_module, "winnable_job", counted)
    service = GameService(store, clock=clock, rng=Drawn(14), executor=ThreadPoolExecutor(1))
    try:
        await service.update_settings(USER, winnable=True)
        first = await service.new_game(USER, GUILD)
        assert searched == [14]
        await service.deal(USER, first.version)  # the game moves on past the board
        with pytest.raises(StaleVersionError):  # a New game button on the old board
            await service.new_game(USER, GUILD, replaces_version=first.version)
        await service.daily(USER, GUILD)
        await service.deal(USER)  # a scored daily in play
        with pytest.raises(DailyInProgressError):
            await service.new_game(USER, GUILD)
        assert searched == [14]  # neither refusal waited for a search
    finally:
        await service.close()


def test_the_job_finds_the_first_proven_deal_and_none_past_its_candidates() -> None:
    line = solve(Game.new(16), max_nodes=WINNABLE_NODE_BUDGET, max_seconds=60).line
    assert jobs_module.winnable_job(14, 10) == (16, line)  # the deal and its proof
    assert jobs_module.winnable_job(14, 2) is None  # 14 and 15 only
    assert list(numbers_from(999_999_999, 3)) == [999_999_999, 1, 2]  # after the last, 1
    last = jobs_module.winnable_job(999_999_999, 2)
    assert last is not None and last[0] == 999_999_999  # the last deal is a candidate too


def test_the_search_stops_at_its_time_limit() -> None:
    assert first_proven(numbers_from(14, 10), WINNABLE_NODE_BUDGET, max_seconds=0) is None
    assert first_proven(numbers_from(14, 10), WINNABLE_NODE_BUDGET, max_seconds=60) == (
        16,
        solve(Game.new(16), max_nodes=WINNABLE_NODE_BUDGET, max_seconds=60).line,
    )


async def test_a_new_player_gets_winnable_deals_and_automatic_aces(
    product_defaults: None, store: Store, clock: Any
) -> None:
    settings = Settings()
    assert settings.winnable and settings.auto_aces and settings.symbols
    service = GameService(store, clock=clock, rng=Drawn(14), executor=ThreadPoolExecutor(1))
    try:
        assert await service.get_settings(USER) == settings
        view = await service.new_game(USER, GUILD)
        assert view.message == (
            "New game of Virginia Reel: deal 16 · proven winnable · 2 Aces to the Ace pile"
        )
        assert len(Game.new(16).safe_moves()) == 2 and not view.can_auto  # both went home
        await service.update_settings(USER, winnable=False, auto_aces=False)
        plain = await service.new_game(USER, GUILD)
        assert (plain.deal_number, plain.message) == (14, "New game of Virginia Reel: deal 14")
        assert plain.can_auto  # its two reserve Aces wait
    finally:
        await service.close()
