"""The streak reminder through the service: who is due one, when, and only once a day."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta

import pytest

from bot.service import GameService
from bot.service.reminders import Reminder
from bot.store import Store

ALICE, BOB, CAROL, DAVE, ERIN = 101, 102, 103, 104, 105
SATURDAY, SUNDAY, MONDAY = date(2026, 11, 28), date(2026, 11, 29), date(2026, 11, 30)
MIDNIGHT = datetime(2026, 12, 1, tzinfo=UTC)


def at(day: date, hour: int = 12, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


class StillClock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def still() -> StillClock:
    return StillClock(at(SATURDAY))


@pytest.fixture
async def service(store: Store, still: StillClock) -> AsyncIterator[GameService]:
    service = GameService(store, clock=still, rng=random.Random(7))
    yield service
    await service.close()


async def play_daily(service: GameService, still: StillClock, user: int, day: date) -> None:
    """``user`` plays ``day``'s daily (a deal, then resigns): a result for the streak."""
    still.now = at(day)
    view = await service.daily(user, None)
    view = await service.deal(user, view.version)
    await service.resign(user, view.version)


async def due(service: GameService) -> list[tuple[int, int]]:
    return [(r.user_id, r.streak) for r in await service.reminders.due()]


async def test_only_players_who_asked_and_whose_streak_breaks_tonight_are_due(
    service: GameService, still: StillClock
) -> None:
    for user in (ALICE, BOB, CAROL, DAVE):
        await play_daily(service, still, user, SATURDAY)
    for user in (ALICE, BOB, CAROL):
        await play_daily(service, still, user, SUNDAY)
    for user in (ALICE, BOB, DAVE, ERIN):
        await service.update_settings(user, reminders=True)
    # Monday: Bob starts today's daily (it will count, finished later or not).
    still.now = at(MONDAY, 8)
    await service.daily(BOB, None)

    still.now = at(MONDAY, 21, 59)
    assert await due(service) == []  # not before 22:00 UTC
    still.now = at(MONDAY, 22)
    # Alice: a streak of 2 that ends tonight. Bob has played; Carol never asked; Dave's
    # streak broke on Sunday; Erin has no streak.
    [reminder] = await service.reminders.due()
    assert reminder == Reminder(ALICE, 2, MONDAY, MIDNIGHT)
    still.now = at(MONDAY, 23, 59)
    assert await due(service) == [(ALICE, 2)]  # due until sent


async def test_a_reminder_is_sent_once_a_day_and_never_after_the_player_played(
    service: GameService, still: StillClock
) -> None:
    await play_daily(service, still, ALICE, SUNDAY)
    await play_daily(service, still, BOB, SUNDAY)
    for user in (ALICE, BOB):
        await service.update_settings(user, reminders=True)
    still.now = at(MONDAY, 22, 30)
    reminders = await service.reminders.due()
    assert [(r.user_id, r.streak) for r in reminders] == [(ALICE, 1), (BOB, 1)]
    service.reminders.sent(reminders[0])
    assert await due(service) == [(BOB, 1)]
    await service.daily(BOB, None)  # Bob plays before his reminder went out
    assert await due(service) == []

    # Tuesday: Alice didn't play Monday (her streak is gone); Bob finished Monday's.
    await service.resign(BOB)
    still.now = at(MONDAY + timedelta(days=1), 22)
    assert await due(service) == [(BOB, 2)]
    # Turning the reminder off takes effect at once.
    await service.update_settings(BOB, reminders=False)
    assert await due(service) == []


async def test_practice_and_replays_do_not_stop_a_reminder(
    service: GameService, still: StillClock
) -> None:
    await play_daily(service, still, ALICE, SUNDAY)
    await service.update_settings(ALICE, reminders=True)
    still.now = at(MONDAY, 22)
    await service.practice.start(ALICE, None, SUNDAY)  # practice is not today's daily
    assert await due(service) == [(ALICE, 1)]
