"""Shared fixtures for the bot tests: a store on a fresh file, a service with a fake clock.

(The daily's proof search is skipped for every test by ``quick_daily_search`` in
tests/conftest.py; ask for ``real_daily_search`` to run it.)
"""

from __future__ import annotations

import random
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store import Store

# Tests run with --import-mode=importlib: make `import known_win` work from test files.
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


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
