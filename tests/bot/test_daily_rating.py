"""Each daily's difficulty: rated from the blind player's games once its deal is chosen,
stored with it and never changed, and shown on the board, the leaderboard and the share
line (docs/daily.md)."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

import bot.service.daily_rules as daily_module
from bot.service import GameService
from bot.service.daily_rules import HARD_SHARE, MEDIUM_SHARE, rate_deal, rating_of
from bot.store import DailyDeal, Store
from engine import Game
from engine.solver.blind_study import BlindGame, play_blind

DAY = date(2026, 12, 5)
USER, GUILD = 31, 77


def test_a_deal_the_blind_player_wins_is_easy_else_its_share_home_says() -> None:
    assert rating_of([False, True, False, False], [20, 104, 30, 40], 104) == "Easy"
    medium, hard = math.ceil(MEDIUM_SHARE * 104), math.ceil(HARD_SHARE * 104)
    assert rating_of([False] * 4, [medium] * 4, 104) == "Medium"
    assert rating_of([False] * 4, [hard, hard, hard, hard], 104) == "Hard"
    assert rating_of([False] * 4, [medium - 1] * 4, 104) == "Hard"
    assert rating_of([False] * 4, [hard - 1] * 4, 104) == "Expert"
    assert rating_of([False] * 4, [10, 20, 30, 20], 104) == "Expert"
    assert rating_of([False] * 2, [80, 80], 156) == "Hard"  # three packs: a share of 156


def test_the_rating_is_the_blind_games_of_the_deal_and_the_same_every_time() -> None:
    # deal 696: the blind player's game of it is over within a few moves (quick to test)
    played = play_blind(Game.new(696), seed=0)
    assert not played.won and played.moves < 10
    expected = rating_of([False], [played.score], 104)
    assert expected == "Expert"
    assert rate_deal(696, games=1) == expected  # the same game: the same every time
    assert rate_deal(696, games=0) is None


def at(day: date) -> Any:
    return lambda: datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


async def test_a_daily_is_rated_in_the_background_then_shown_and_kept(
    rated_dailies: None, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games: list[int] = []

    def blind(game: Game, *, seed: int = 0, **budget: Any) -> BlindGame:
        games.append(seed)
        return BlindGame(game.deal_number or 0, False, 40 + seed, 50, 20, 0.1, 0.01)

    monkeypatch.setattr(daily_module, "play_blind", blind)  # 40-43 of 104 home: Hard
    store = await Store.open(db_path)
    service = GameService(store, clock=at(DAY), executor=ThreadPoolExecutor(1))
    try:
        await service.daily(USER, GUILD)  # dealt at once; rated meanwhile
        assert await service.daily_rating(DAY) == "Hard"
        assert games == [0, 1, 2, 3]  # four blind games, one a seed
        view = await service.show(USER)
        assert view.rating == "Hard"
        over = await service.resign(USER)
        assert over.share_text is not None
        assert over.share_text.startswith(f"Virginia Reel daily {DAY.isoformat()} (Hard): ")
        board = await service.leaderboard("daily", "global", day=DAY)
        assert board.rating == "Hard"
    finally:
        await service.close()
    async with Store(db_path) as reopened:
        stored = await reopened.load_daily_deal(DAY)
        assert stored is not None and stored.rating == "Hard"
        # the first rating stays
        again = await reopened.save_daily_rating(DAY, "vr", "Easy")
        assert again is not None and again.rating == "Hard"
    # a restarted service rates nothing again
    store = await Store.open(db_path)
    service = GameService(store, clock=at(DAY), executor=ThreadPoolExecutor(1))
    try:
        await service.daily(USER, GUILD)
        assert await service.daily_rating(DAY) == "Hard" and len(games) == 4
    finally:
        await service.close()


async def test_an_unrated_daily_shows_no_rating(db_path: Path) -> None:
    store = await Store.open(db_path)
    service = GameService(store, clock=at(DAY))
    try:
        view = await service.daily(USER, GUILD)
        assert view.rating is None and await service.daily_rating(DAY) is None
    finally:
        await service.close()


async def test_a_rating_is_stored_only_for_a_daily_that_is(db_path: Path) -> None:
    async with Store(db_path) as store:
        assert await store.save_daily_rating(DAY, "vr", "Easy") is None
        await store.save_daily_deal(DailyDeal(DAY, 5, None, None))
        rated = await store.save_daily_rating(DAY, "vr", "Expert")
        assert rated == DailyDeal(DAY, 5, None, None, "vr", "Expert")
