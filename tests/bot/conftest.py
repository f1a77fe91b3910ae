"""Shared fixtures for the bot tests: a store on a fresh file, a service with a fake clock."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.daily import DailyDeal, daily_start_number
from bot.service import GameService
from bot.store import Store

_REAL_FIND_DAILY = GameService._find_daily


class FakeClock:
    """A clock that moves one second forward each time it is read."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now

    def set(self, when: datetime) -> None:
        """Jump to ``when`` (the next reading is one second later)."""
        self.now = when


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "reel.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(db_path)
    yield store
    await store.close()


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> AsyncIterator[GameService]:
    service = GameService(store, clock=clock, rng=random.Random(7))
    yield service
    await service.close()


async def _quick_daily(self: GameService, day: date) -> DailyDeal:
    """The daily without the proof search: the date's starting number, unproven."""
    return DailyDeal(day, daily_start_number(day), None, None)


@pytest.fixture(autouse=True)
def quick_daily_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every service in these tests skips the daily's proof search (about a second a date,
    in a worker process): the daily is the date's starting number, with no par. Tests of the
    real search ask for ``real_daily_search``; tests wanting another deal patch it again."""
    monkeypatch.setattr(GameService, "_find_daily", _quick_daily)


@pytest.fixture
def real_daily_search(quick_daily_search: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo ``quick_daily_search``: the daily is found by the solver in the process pool."""
    monkeypatch.setattr(GameService, "_find_daily", _REAL_FIND_DAILY)
