"""The daily challenge's numbers and calendar, pure (no clock: the caller passes the date
or time it read from its own): which deal numbers a date's daily tries, in order, and
when a date's daily starts. ``docs/daily.md`` gives the rules.

The search for a date's daily starts at ``daily_start_number(day)`` (pinned by golden
tests; never change it): the UTC date written as the integer ``YYYYMMDD`` seeds the
engine's SplitMix64 generator (``engine.deal.SplitMix64``), and its first draw, uniform
in ``0..999_999_998`` by rejection, plus one, so it lies in ``1..999_999_999`` like a
random deal. Each other game of the family has a daily of its own, searched from a
starting number of its own (the date's integer times 100 plus the game's place in
``GAME_SEEDS``: a different deal in each game). Which of the candidates is the daily (the
first the solver proves winnable) is the service's to find (``bot.service.daily_rules``):
the rules core never runs the solver.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Final

from .deal import SplitMix64

DAILY_DEAL_MAX: Final = 999_999_999
GAME_SEEDS: Final = {"vr": 0, "rp": 1, "tu": 2, "bj": 3, "bp": 4}
"""Each game's place in its daily's seed (pinned by golden tests: never change one)."""


def daily_start_number(day: date, variant: str = "vr") -> int:
    """The date-derived number where the search for the daily of ``day`` of the game
    ``variant`` starts (1..999_999_999)."""
    seed = day.year * 10_000 + day.month * 100 + day.day
    if variant != "vr":
        seed = seed * 100 + GAME_SEEDS[variant]
    return SplitMix64(seed).below(DAILY_DEAL_MAX) + 1


def numbers_from(start: int, count: int) -> list[int]:
    """``count`` deal numbers from ``start`` on (after 999_999_999 comes 1)."""
    return [(start - 1 + k) % DAILY_DEAL_MAX + 1 for k in range(count)]


def candidate_numbers(day: date, count: int, variant: str = "vr") -> list[int]:
    """The deals tried for ``day`` (of ``variant``), in order: the starting number and the
    next ones."""
    return numbers_from(daily_start_number(day, variant), count)


def utc_date(moment: datetime) -> date:
    """The UTC date of an aware datetime (a naive one is taken to be UTC already)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.date()


def next_daily_start(now: datetime) -> datetime:
    """When the next daily starts: the first UTC midnight strictly after ``now`` (aware, UTC)."""
    tomorrow = utc_date(now) + timedelta(days=1)
    return datetime.combine(tomorrow, time(0, 0), tzinfo=UTC)
