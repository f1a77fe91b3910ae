"""Fixtures for every test: services skip the daily's proof search and start new players
with plain settings, unless a test asks otherwise.

Kept here, above tests/bot and tests/discord_bot, because both make services that deal
dailies; tests/engine makes none, so the patch changes nothing there.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest

import bot.service.games as games_module
from bot.service import Settings
from bot.service.dailies import DailyDeals
from bot.service.daily_rules import RATING_GAMES
from bot.store import DailyDeal
from engine.daily import daily_start_number
from tests.bot.pg_server import PgServer

_REAL_FIND_DAILY = DailyDeals.find


async def _quick_daily(self: DailyDeals, day: date, variant: str = "vr") -> DailyDeal:
    """The daily without the proof search: the date's starting number, unproven."""
    return DailyDeal(day, daily_start_number(day, variant), None, None, variant)


@pytest.fixture(autouse=True)
def quick_daily_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every service in these tests skips the daily's proof search (about a second a date,
    in a worker process): the daily is the date's starting number, with no par. Tests of the
    real search ask for ``real_daily_search``; tests wanting another deal patch it again."""
    monkeypatch.setattr(DailyDeals, "find", _quick_daily)


PLAIN_SETTINGS = Settings(symbols=True, auto_aces=False, winnable=False, fair_hints=False)


@pytest.fixture(autouse=True)
def plain_new_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every service in these tests starts a new player with automatic Aces and winnable
    deals off (the product turns both on), so a test plays exactly the moves it names and
    a random deal is dealt with no search; and with the solver's hints (the product's are
    fair, the blind player's), which the tests of hints were written for. Tests of the
    defaults ask for ``product_defaults``."""
    monkeypatch.setattr(games_module, "DEFAULT_SETTINGS", PLAIN_SETTINGS)


@pytest.fixture
def product_defaults(plain_new_players: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo ``plain_new_players``: a new player has the product's settings."""
    monkeypatch.setattr(games_module, "DEFAULT_SETTINGS", Settings())


@pytest.fixture(autouse=True)
def unrated_dailies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every service in these tests leaves its dailies unrated (the rating plays four blind
    games, seconds compiled, a minute in the pure Python the tests run). Tests of the
    rating ask for ``rated_dailies``."""
    monkeypatch.setattr(games_module, "DAILY_RATING_GAMES", 0)


@pytest.fixture(autouse=True)
def patient_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every service in these tests gives a hint a minute (the product: ``HINT_DEADLINE``,
    a few seconds), so that a test of what the solver finds gets it, though the tests run
    the pure Python solver, many times slower, on a shared machine. Tests of the deadline
    give the service theirs (``GameService(hint_deadline=...)``)."""
    monkeypatch.setattr(games_module, "HINT_DEADLINE", 60.0)


@pytest.fixture
def rated_dailies(unrated_dailies: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo ``unrated_dailies``: a daily found by the solver is rated as the product does."""
    monkeypatch.setattr(games_module, "DAILY_RATING_GAMES", RATING_GAMES)


@pytest.fixture
def real_daily_search(quick_daily_search: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo ``quick_daily_search``: the daily is found by the solver in the process pool."""
    monkeypatch.setattr(DailyDeals, "find", _REAL_FIND_DAILY)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A throwaway PostgreSQL server for the session (tests/bot/pg_server.py), started by
    the first test that needs it (in any folder) and stopped at the end, whatever the tests
    did; a run killed hard leaves it to the next run to stop."""
    server = PgServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()
