"""Changes made by other processes: a bot sharded over several processes on one PostgreSQL
database hears each one's writes (``GameStore.follow_changes``), and tells them to its own
live boards as it tells its own changes (``GameService.on_change``; docs/scaling.md).

A game's change is told as its player and version, as a local one is: each listener reads
the stored game itself (a watch redraws, a web board is sent the new board). A race's
change makes the races read it again (``Races.heard``). When the changes may have missed
some (the connection they come by was lost and is back), the listeners are told the stored
version of every player they follow, and every open race is read again: nothing is missed,
since the store listens again before this reads.

On an SQLite file nothing is heard: a look finds that another process wrote, not what
(``outside.py``), and the listeners are told the stored version of every player they follow
(``written_outside``), the races left alone (a race is its process's on SQLite).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection, Coroutine
from typing import Any, Final

from ..store import GameStore, StoreError
from .races import Races

log = logging.getLogger(__name__)

Following = Callable[[], Collection[int]]
"""The players a listener of game changes follows now (``GameService.on_change``)."""

CATCH_UP_TRIES: Final = 3
CATCH_UP_PAUSE: Final = 1.0  # seconds between two tries of a catch-up that failed


class RemoteChanges:
    """The service's ``ChangeListener`` (see the module docstring)."""

    def __init__(
        self,
        tell: Callable[[int, int], None],
        races: Races,
        catch_up: Callable[[bool], Awaitable[None]],
    ) -> None:
        """``tell(user_id, version)``: the service's own listeners; ``catch_up(races)``:
        read again what they follow (``GameService.catch_up``; ``StoreError`` if it can't)."""
        self._tell = tell
        self._races = races
        self._catch_up = catch_up
        self._tasks: set[asyncio.Task[None]] = set()
        self._outside_due = False  # a catch-up after an outside write, not begun yet
        self.games_heard = 0
        self.races_heard = 0
        self.catch_ups = 0
        self.outside_writes = 0  # looks that found another process's write (SQLite)

    def game_changed(self, user_id: int, version: int) -> None:
        self.games_heard += 1
        self._tell(user_id, version)

    def race_changed(self, race_id: int) -> None:
        self.races_heard += 1
        self._races.heard(race_id)

    def reconnected(self) -> None:
        self._start(self._catching_up(True))

    def written_outside(self) -> None:
        """Another process wrote the SQLite file (what, unknown): the listeners told the
        stored versions once more, soon (several writes found meanwhile: once)."""
        self.outside_writes += 1
        if not self._outside_due:
            self._outside_due = True
            self._start(self._catching_up(False))

    def _start(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catching_up(self, races: bool) -> None:
        if not races:
            self._outside_due = False  # begun: a write found from now on is read again
        for attempt in range(1, CATCH_UP_TRIES + 1):
            try:
                await self._catch_up(races)
            except StoreError as exc:
                log.warning("catching up with the changes missed failed (%s): %s", attempt, exc)
                await asyncio.sleep(CATCH_UP_PAUSE)
                continue
            if races:
                self.catch_ups += 1
            return
        log.error("could not catch up with the changes missed: live boards may lag until the next")

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task


class Listeners:
    """The listeners of the players' games (``GameService.on_change``): each told of every
    change stored, and, when some may have been missed, of the stored version of each
    player it follows (``catch_up``)."""

    def __init__(self, store: GameStore, races: Races) -> None:
        self._store = store
        self._races = races
        self._all: list[tuple[Callable[[int, int], None], Following | None]] = []

    def add(self, listener: Callable[[int, int], None], following: Following | None) -> None:
        self._all.append((listener, following))

    def following(self) -> bool:
        """Whether any listener follows a player now."""
        return any(who() for _, who in self._all if who is not None)

    def tell(self, user_id: int, version: int) -> None:
        for listener, _ in self._all:
            try:
                listener(user_id, version)
            except Exception:
                log.exception("a listener of game changes failed")

    async def catch_up(self, races: bool) -> None:
        """Each listener told the stored version of each player it follows, and with
        ``races`` every open race read again. ``StoreError`` if the database can't be read."""
        follows = [(tell, set(who())) for tell, who in self._all if who is not None]
        users = set().union(*(who for _, who in follows))
        versions = await self._store.game_versions(users) if users else {}
        if races:
            await self._races.catch_up()
        for tell, who in follows:
            for user in who & versions.keys():
                try:
                    tell(user, versions[user])
                except Exception:
                    log.exception("a listener of game changes failed")
