"""The daily streaks from a player's whole list of dates: the reference that the store's
running totals (``PlayerTotals.current_streak``, ``best_streak``) are checked against."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta


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
