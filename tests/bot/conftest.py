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
from bot.store import GameStore
from bot.store.open import open_store

# Tests run with --import-mode=importlib: make `import known_win` work from test files.
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from pg_server import PgServer  # noqa: E402  (found through the path set just above)

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests marked ``backends`` (and not ``sqlite_only``) run on each store backend: their
    ``store`` (and ``db_target``) is a SQLite file, then a PostgreSQL database."""
    marked = metafunc.definition.get_closest_marker("backends")
    only = metafunc.definition.get_closest_marker("sqlite_only")
    if marked and not only and "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", BACKENDS, indirect=True)


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
def backend(request: pytest.FixtureRequest) -> str:
    """The store's backend: "sqlite", or each of "sqlite" and "postgres" for tests marked
    ``backends``."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
async def db_target(
    backend: str, db_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[str]:
    """Where the test's database is: the SQLite file's path, or a new PostgreSQL
    database's URL (dropped after the test)."""
    if backend == "sqlite":
        yield str(db_path)
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = await server.fresh_database()
    yield url
    await server.drop_database(url)


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[GameStore]:
    store = await open_store(db_target)
    yield store
    await store.close()


@pytest.fixture
async def service(store: GameStore, clock: FakeClock) -> AsyncIterator[GameService]:
    service = GameService(store, clock=clock, rng=random.Random(7))
    yield service
    await service.close()
