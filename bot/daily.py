"""The daily challenge: which deal is dealt each UTC date, when the next one starts, streaks.

Everything here is pure (no clock, no SQL): the service passes the date or
time it read from its own clock. ``docs/daily.md`` gives the rules.

The daily deal (pinned by golden tests; never change it, a player's "deal of
2026-11-29" must stay the same deal forever): the UTC date written as the
integer ``YYYYMMDD`` seeds the engine's SplitMix64 generator
(``engine.deal.SplitMix64``), and its first draw, uniform in
``0..999_999_998`` by rejection, plus one, is the deal number, so it lies in
``1..999_999_999`` like a random deal. A later solver issue will make the
daily "the first proven-winnable deal at or after" this number; that change
belongs in ``daily_deal_number`` and nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from typing import Final

from engine.deal import SplitMix64

DAILY_DEAL_MAX: Final = 999_999_999
GAME_NAME: Final = "Virginia Reel"


def daily_deal_number(day: date) -> int:
    """THE deal of the daily challenge of ``day`` (a UTC date), in 1..999_999_999."""
    seed = day.year * 10_000 + day.month * 100 + day.day
    return SplitMix64(seed).below(DAILY_DEAL_MAX) + 1


def utc_date(moment: datetime) -> date:
    """The UTC date of an aware datetime (a naive one is taken to be UTC already)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.date()


def next_daily_start(now: datetime) -> datetime:
    """When the next daily starts: the first UTC midnight strictly after ``now`` (aware, UTC)."""
    tomorrow = utc_date(now) + timedelta(days=1)
    return datetime.combine(tomorrow, time(0, 0), tzinfo=UTC)


def share_text(day: date, *, won: bool, score: int, moves: int, card_total: int = 104) -> str:
    """The spoiler-free one line a player can post after their scored daily.

    >>> share_text(date(2026, 11, 29), won=True, score=104, moves=112)
    'Virginia Reel daily 2026-11-29: won in 112 moves'
    >>> share_text(date(2026, 11, 29), won=False, score=87, moves=95)
    'Virginia Reel daily 2026-11-29: 87/104 cards home in 95 moves'
    """
    head = f"{GAME_NAME} daily {day.isoformat()}"
    tail = f"in {moves} {'move' if moves == 1 else 'moves'}"
    if won:
        return f"{head}: won {tail}"
    return f"{head}: {score}/{card_total} cards home {tail}"


def streaks(days: Iterable[date], today: date) -> tuple[int, int]:
    """(current, best) daily streak from the dates on which the scored daily was finished.

    A streak is a run of consecutive UTC dates. The current streak is the run
    ending at the latest date if that date is ``today`` or yesterday (the
    player can still continue it today), else 0.
    """
    ordered = sorted(set(days))
    best = run = 0
    previous: date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    if previous is None or (today - previous).days > 1:
        return 0, best
    return run, best
