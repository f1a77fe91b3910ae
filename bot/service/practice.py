"""Practice: a past date's daily played again, unscored and unrecorded (``docs/daily.md``).

``GameService.practice`` (a ``Practice``) deals the daily of an earlier date
(THE deal chosen for that date, ``GameService.daily_deal``) as the player's
current game, over the one in play as ``new_game`` does. The game is stored as an
unscored daily of its date (``scored`` 0) started after that date, which is how
it is known again after a restart (``practised``); its end is recorded nowhere:
no result, no totals, no daily board, no streak.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date, datetime
from typing import Final

from engine.daily import utc_date

from ..store import DailyDeal
from .cache import PlayerLocks
from .contract import GameView
from .entry import GameInMemory, proof_of
from .errors import NEWER_GAME_MESSAGE, BadInputError, DailyInProgressError, StaleVersionError
from .wording import aces_note

FIRST_DAILY: Final = date(2026, 1, 1)
"""The earliest date a daily can be practised: the first year of dailies."""

OldGame = Callable[[int], Awaitable[GameInMemory | None]]
Start = Callable[..., Awaitable[tuple[GameInMemory, str]]]
View = Callable[[int, GameInMemory, str | None], Awaitable[GameView]]
DealOf = Callable[[date], Awaitable[DailyDeal]]


def practised(entry: GameInMemory) -> bool:
    """Whether ``entry`` is a practice game: an unscored daily started after its date."""
    day = entry.daily_date
    return day is not None and not entry.scored and day < utc_date(entry.started_at)


def check_practice_day(day: date, today: date) -> None:
    """``BadInputError`` saying why ``day``'s daily can't be practised on ``today``."""
    if day > today:
        raise BadInputError(
            f"The daily of {day.isoformat()} hasn't started yet (today is {today.isoformat()} "
            "UTC): practice takes an earlier date."
        )
    if day == today:
        raise BadInputError(
            f"{day.isoformat()} is today: today's daily is the scored one, played without a "
            "date. Practice takes an earlier date."
        )
    if day < FIRST_DAILY:
        raise BadInputError(
            f"The first daily is {FIRST_DAILY.isoformat()}: practice takes a date from then "
            "to yesterday."
        )


class Practice:
    """Past dailies, played for practice. Built by ``GameService`` with its own parts: the
    player's lock, the current game, the start of a new one over it, the view of a game,
    the deal of a date."""

    def __init__(
        self,
        locks: PlayerLocks,
        old_entry: OldGame,
        start: Start,
        view: View,
        deal_of: DealOf,
        clock: Callable[[], datetime],
    ) -> None:
        self._locks = locks
        self._old_entry = old_entry
        self._start = start
        self._view = view
        self._deal_of = deal_of
        self._clock = clock

    def check(self, day: date) -> None:
        """Refuse (``BadInputError``) a date that can't be practised today; a front end
        checks before asking whether to end the game in play."""
        check_practice_day(day, utc_date(self._clock()))

    async def start(
        self,
        user_id: int,
        guild_id: int | None,
        day: date,
        replaces_version: int | None = None,
    ) -> GameView:
        """Deal ``day``'s daily for practice, or resume the practice of it in progress.

        Over another game as ``new_game``: refused over a scored daily in play
        (``DailyInProgressError``), or if ``replaces_version`` is given and the game has
        moved on (``StaleVersionError``); an unfinished game is recorded first (a
        practice game never is)."""
        self.check(day)
        deal = await self._deal_of(day)  # outside the lock: a date never dealt is searched
        async with self._locks(user_id):
            old = await self._old_entry(user_id)
            if old is not None and not old.finished and old.daily_date == day and practised(old):
                message = f"Practice of the daily of {day.isoformat()}: your game in progress"
                return await self._view(user_id, old, message)
            if old is not None and not old.finished:
                if replaces_version is not None and old.version != replaces_version:
                    raise StaleVersionError(NEWER_GAME_MESSAGE)
                if old.daily_in_play():
                    assert old.daily_date is not None
                    raise DailyInProgressError(old.daily_date)
            entry, note = await self._start(
                user_id, guild_id, deal.deal_number, old, day, False, proof_of(deal)
            )
            message = (
                f"Practice of the daily of {day.isoformat()}: deal {deal.deal_number}, "
                f"not scored{note}"
            )
            return await self._view(user_id, entry, message + aces_note(entry))
