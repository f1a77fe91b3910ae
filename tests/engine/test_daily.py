"""The daily's numbers and calendar (``engine/daily.py``): a date's starting deal, pinned
for ever; the candidates after it; the UTC midnight a daily starts at."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

import engine.daily as daily_module
from engine.daily import candidate_numbers, daily_start_number, next_daily_start, utc_date

D1 = date(2026, 11, 28)
D2 = date(2026, 11, 29)
DAY = date(2026, 1, 2)


def at(day: date, hour: int = 12, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


def test_the_daily_deal_is_pinned_for_every_date() -> None:
    # Golden values: a date's daily must never change (players compare their results).
    assert daily_start_number(date(2025, 1, 1)) == 35347303
    assert daily_start_number(date(2026, 11, 29)) == 2117988
    assert daily_start_number(date(2026, 11, 30)) == 917675258
    assert daily_start_number(date(2028, 2, 29)) == 929030064
    year = [daily_start_number(date(2026, 1, 1) + timedelta(days=n)) for n in range(365)]
    assert all(1 <= deal <= 999_999_999 for deal in year)
    assert len(set(year)) == 365


def test_the_next_daily_starts_at_the_next_utc_midnight() -> None:
    assert next_daily_start(at(D1, 23, 59)) == at(D2, 0)
    assert next_daily_start(at(D2, 0)) == at(D2 + timedelta(days=1), 0)
    # An aware time elsewhere is read in UTC: 20:00 at UTC-5 is 01:00 UTC the next day.
    evening = datetime(2026, 11, 28, 20, 0, tzinfo=timezone(timedelta(hours=-5)))
    assert utc_date(evening) == D2
    assert next_daily_start(evening) == at(D2 + timedelta(days=1), 0)


def test_candidates_wrap_around_after_the_last_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily_module, "daily_start_number", lambda day, variant="vr": 999_999_998)
    assert candidate_numbers(DAY, 4) == [999_999_998, 999_999_999, 1, 2]
