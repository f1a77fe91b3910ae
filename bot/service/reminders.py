"""The streak reminder: who is due one, and who has had today's (``docs/daily.md``).

A player who turned the reminder on (``Settings.reminders``) and whose streak
would break at the coming UTC midnight (their latest scored daily is
yesterday's, and they have not started today's) is due one reminder from
``REMIND_AT`` (22:00 UTC) to midnight. The front end delivers it and says so
(``sent``); the service remembers, in memory, whom it reminded on which date,
so a player gets at most one a day. A restart forgets that: at worst a player
reminded before it is reminded once more that evening (no migration was
spent on a table for it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Final

from engine.daily import next_daily_start, utc_date

from ..store import GameStore, StoreError
from .errors import StorageError

log = logging.getLogger(__name__)

REMIND_AT: Final = time(22, 0)
"""When, UTC, the reminders of the day go out: two hours before the daily's rollover."""


@dataclass(frozen=True, slots=True)
class Reminder:
    """One reminder to send: whose streak, how long, the date to play, when it closes."""

    user_id: int
    streak: int  # days in a row so far, yesterday's included
    day: date  # today's date, whose daily keeps the streak
    closes_at: datetime  # the next UTC midnight


class Reminders:
    """Who is due a streak reminder now (by ``clock``), and the memory of those sent."""

    def __init__(self, store: GameStore, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._clock = clock
        self._sent: dict[int, date] = {}  # user id -> the date of their last reminder

    def window_opens(self, now: datetime) -> datetime:
        """The start of the reminder window of ``now``'s date (UTC)."""
        return datetime.combine(utc_date(now), REMIND_AT, tzinfo=UTC)

    async def due(self) -> list[Reminder]:
        """The reminders to send now: none before ``REMIND_AT``; then every player whose
        streak would break tonight, not reminded today, by user id."""
        now = self._clock()
        if now < self.window_opens(now):
            return []
        today = utc_date(now)
        try:
            found = await self._store.reminder_candidates(today)
        except StoreError as exc:
            log.error("database failure finding the streak reminders: %s", exc, exc_info=exc)
            raise StorageError("The streak reminders can't be read just now.") from exc
        self._sent = {user: day for user, day in self._sent.items() if day == today}
        closes = next_daily_start(now)
        return [
            Reminder(user, streak, today, closes)
            for user, streak in found
            if self._sent.get(user) != today
        ]

    def sent(self, reminder: Reminder) -> None:
        """Remember ``reminder`` as done (delivered, or given up on): no other that day."""
        self._sent[reminder.user_id] = reminder.day
