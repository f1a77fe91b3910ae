"""Periods of the leaderboards: the ISO week and the calendar month (UTC) holding a date.

A weekly board covers Monday to Sunday of an ISO week (ISO 8601: the week
belongs to the year holding its Thursday, so 2027-01-01, a Friday, is in week
53 of 2026); a seasonal board covers a calendar month. Both rank the scored
dailies dated inside the period (``docs/daily.md``).
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from typing import Final, Literal, get_args

PeriodKind = Literal["weekly", "seasonal"]
PERIOD_KINDS: Final[tuple[PeriodKind, ...]] = get_args(PeriodKind)


def week_bounds(day: date) -> tuple[date, date]:
    """Monday and Sunday of the ISO week holding ``day``."""
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


def month_bounds(day: date) -> tuple[date, date]:
    """The first and the last day of the calendar month holding ``day``."""
    last = calendar.monthrange(day.year, day.month)[1]
    return day.replace(day=1), day.replace(day=last)


def period_bounds(kind: PeriodKind, day: date) -> tuple[date, date]:
    """The first and last dates (both included) of the ``kind`` period holding ``day``."""
    return week_bounds(day) if kind == "weekly" else month_bounds(day)


def period_name(kind: PeriodKind, day: date) -> str:
    """``Week 48 of 2026 (2026-11-23 to 2026-11-29)``, ``November 2026 (2026-11-01 to
    2026-11-30)``: the period holding ``day``, with its bounds."""
    first, last = period_bounds(kind, day)
    bounds = f"({first.isoformat()} to {last.isoformat()})"
    if kind == "weekly":
        year, week, _ = first.isocalendar()
        return f"Week {week} of {year} {bounds}"
    return f"{calendar.month_name[first.month]} {first.year} {bounds}"
