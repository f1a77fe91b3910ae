"""Replays of race games: a racer's game in a race that is over, read for ``Replays``
(the replay kind ``race``; ``docs/races.md``, ``docs/together.md``).

A racer's game is numbered by the store (``RaceStore.racer_key``), so a replay's
buttons carry it as they carry a finished game's id. A race still in its lobby or
running has no game to replay yet (its racers' moves would help the others), and one
cancelled never had any; a replay of someone else's race game follows the usual rules
of ``Replays.check`` (their ``watchable`` setting; a race on the day's daily deal
stays hidden until the day is over).
"""

from __future__ import annotations

from typing import Final

from ...store import RacerStatus, RaceStore, StoreError
from ..errors import BadInputError, StorageError, storage_reason
from ..replays import Recorded

RACE_KIND: Final = "race"
OUTCOME_OF: Final[dict[RacerStatus, str]] = {
    "won": "won",
    "left": "left the race",
    "timed_out": "timed out",
    "racing": "timed out",  # a race over has no one racing; kept for a row cut short
    "joined": "never started",
}


class RaceReplays:
    """Race games as ``Replays`` reads them: ``key`` finds one, ``recorded`` reads it."""

    def __init__(self, races: RaceStore) -> None:
        self._races = races

    async def key(self, race_id: int, user_id: int, *, own: bool = True) -> int:
        """The number of ``user_id``'s game in race ``race_id``; ``BadInputError`` saying
        why there is none to replay (no such race, not over, not in it)."""
        try:
            found = await self._races.load_race(race_id)
            key = None if found is None else await self._races.racer_key(race_id, user_id)
        except StoreError as exc:
            raise StorageError(reason=storage_reason(exc)) from exc
        if found is None:
            raise BadInputError(f"There is no race {race_id}.")
        race, _ = found
        if race.state == "cancelled":
            raise BadInputError(f"Race {race_id} was cancelled: it has no games to replay.")
        if race.state != "over":
            raise BadInputError(
                f"Race {race_id} is not over yet: its games can be replayed once it ends."
            )
        if key is None:
            who = "You were" if own else "That player was"
            raise BadInputError(f"{who} not in race {race_id}.")
        return key

    async def recorded(self, key: int) -> Recorded | None:
        """The race game numbered ``key`` as a finished game, None if there is none (or
        its race is not over)."""
        try:
            found = await self._races.racer_by_key(key)
        except StoreError as exc:
            raise StorageError(reason=storage_reason(exc)) from exc
        if found is None:
            return None
        race, racer = found
        if race.state != "over":
            return None
        return Recorded(
            kind=RACE_KIND,
            key=key,
            user_id=racer.user_id,
            variant=race.variant,
            deal_number=race.deal_number,
            moves=racer.moves,
            outcome=OUTCOME_OF[racer.status],
            score=racer.score,
            finished_at=race.ended_at or race.started_at or race.created_at,
        )
