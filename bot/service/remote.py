"""Changes made by other processes: a bot sharded over several processes on one PostgreSQL
database hears each one's writes (``GameStore.follow_changes``), and tells them to its own
live boards as it tells its own changes (``GameService.on_change``; docs/scaling.md).

A game's change is told as its player and version, as a local one is: each listener reads
the stored game itself (a watch redraws, a web board is sent the new board). A race's
change makes the races read it again (``Races.heard``). When the changes may have missed
some (the connection they come by was lost and is back), the listeners are told the stored
version of every player they follow, and every open race is read again: nothing is missed,
since the store listens again before this reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from ..store import StoreError
from .races import Races

log = logging.getLogger(__name__)

CATCH_UP_TRIES: Final = 3
CATCH_UP_PAUSE: Final = 1.0  # seconds between two tries of a catch-up that failed


class RemoteChanges:
    """The service's ``ChangeListener`` (see the module docstring)."""

    def __init__(
        self,
        tell: Callable[[int, int], None],
        races: Races,
        catch_up: Callable[[], Awaitable[None]],
    ) -> None:
        """``tell(user_id, version)``: the service's own listeners; ``catch_up``: read
        again what they follow (``GameService.catch_up``; ``StoreError`` if it can't)."""
        self._tell = tell
        self._races = races
        self._catch_up = catch_up
        self._tasks: set[asyncio.Task[None]] = set()
        self.games_heard = 0
        self.races_heard = 0
        self.catch_ups = 0

    def game_changed(self, user_id: int, version: int) -> None:
        self.games_heard += 1
        self._tell(user_id, version)

    def race_changed(self, race_id: int) -> None:
        self.races_heard += 1
        self._races.heard(race_id)

    def reconnected(self) -> None:
        task = asyncio.get_running_loop().create_task(self._catching_up())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catching_up(self) -> None:
        for attempt in range(1, CATCH_UP_TRIES + 1):
            try:
                await self._catch_up()
            except StoreError as exc:
                log.warning("catching up with the changes missed failed (%s): %s", attempt, exc)
                await asyncio.sleep(CATCH_UP_PAUSE)
                continue
            self.catch_ups += 1
            return
        log.error("could not catch up with the changes missed: live boards may lag until the next")

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
