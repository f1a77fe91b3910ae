"""Writes this process is not told of: another process on the same SQLite file (``reel
play`` beside ``reel web``, or beside the bot) changes a game this one holds in memory.

SQLite can't say what another process wrote, only that someone did
(``GameStore.outside_writes``: a count of the commits of other connections found, one
cheap look at ``PRAGMA data_version``). So what the service remembers of a player, their
game and settings, carries the count read before it was read or written (``seen``), and it
is used as it is only while the count is still that one; else the stored version is read
(one read) and the game read again if it moved on. A call looks once, the first time it
would use what is in memory; a command that writes needs no look, its write checking the
version and the settings it was worked out on (``GameService._command``). So one process
alone on its file pays one look a call that only reads, and nothing a move.

The live boards (a web page, a watch) hear of a change made elsewhere when a look finds one:
while someone follows a game, a look every ``POLL_EVERY`` seconds, and then the service tells
each follower the stored version of the players it follows (``GameService.catch_up``), as
it does on PostgreSQL after a lost connection (``remote.py``). docs/storage.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Final

from ..store import GameStore, StoreError
from .cache import LruCache, PlayerLocks

log = logging.getLogger(__name__)

POLL_EVERY: Final = 0.25
LOOK_PATIENCE: Final = 0.2  # seconds a call waits for its look before it uses memory
"""Seconds between two looks while a live board follows a game: a change made elsewhere
reaches an open page within about this, plus the reads that draw it."""


class Outside:
    """What this process has seen of other processes' writes (see the module docstring)."""

    def __init__(
        self, store: GameStore, locks: PlayerLocks, size: int, changed: Callable[[], None]
    ) -> None:
        """``changed()``: a look found a change (the live boards are to catch up)."""
        self.count = 0  # the store's count at the latest look
        self._store = store
        self._locks = locks
        self._changed = changed
        self._looked: LruCache[int] = LruCache(size)  # player -> the hold of the call that looked
        self._following: Callable[[], bool] | None = None
        self._poll: asyncio.Task[None] | None = None

    async def look(self, user_id: int | None = None) -> int:
        """The count now: the store asked, once a call of the player (``user_id``, whose
        lock the call holds); ``StoreError`` as the store's."""
        hold = None if user_id is None else self._locks.hold(user_id)
        if user_id is not None and hold is not None and self._looked.get(user_id) == hold:
            return self.count
        self._start()  # the poll, if it was asked for before any loop ran
        count = await self._store.outside_writes()
        if user_id is not None and hold is not None:
            self._looked.put(user_id, hold)
        if count != self.count:
            self.count = count
            self._changed()
        return self.count

    async def unchanged(self, user_id: int, seen: int) -> bool:
        """Whether what was read or written for the player at the count ``seen`` is as
        stored still: no other process has written since. Never on a shared database (its
        callers check the stored version; and PostgreSQL tells its changes)."""
        if self._store.shared:
            return False
        if self.count != seen:  # an earlier look (the poll's) found a write since
            return False
        try:
            async with asyncio.timeout(LOOK_PATIENCE):
                return await asyncio.shield(self.look(user_id)) == seen
        except TimeoutError:
            # The store's connection is busy (a write in its turn, a stalled disk): what is
            # remembered is served, as before there were looks, so that a read never waits
            # for a write; a write still checks the stored version. The look goes on, and
            # tells the live boards of any change it finds: they read again then, and
            # this check above sends them to the file.
            return self.count == seen

    def poll(self, following: Callable[[], bool]) -> None:
        """Look every ``POLL_EVERY`` seconds while ``following()`` (someone follows a game),
        from now on, in the running loop (or from the first look, if none runs yet)."""
        self._following = following
        with contextlib.suppress(RuntimeError):  # no loop running: started at a look
            self._start()

    def _start(self) -> None:
        if self._poll is None and self._following is not None:
            self._poll = asyncio.get_running_loop().create_task(self._polling())

    async def _polling(self) -> None:
        failed = False
        while True:
            await asyncio.sleep(POLL_EVERY)
            if self._following is None or not self._following():
                continue
            try:
                await self.look()
            except StoreError as exc:  # the calls say so; the next look may find it back
                if not failed:
                    log.warning("could not look for changes made by other processes: %s", exc)
                failed = True
                continue
            failed = False

    async def close(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poll
            self._poll = None
