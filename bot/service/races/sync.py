"""The races kept in step with other processes (``RaceSync``): a change another process
made to a race's rows is heard (``heard``, from ``bot/service/remote.py``), the race is
read again, drawn by the process that runs it, and ended if no one races any more; after
changes may have been missed, every open race is read again (``catch_up``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from ...store import StoreError
from ..errors import RaceError, StorageError
from .clock import RaceClock
from .memory import RacesInMemory

log = logging.getLogger(__name__)


class RaceSync:
    """The races of ``memory`` being read again, one task a race at a time."""

    def __init__(self, memory: RacesInMemory, clock: RaceClock) -> None:
        self._memory = memory
        self._clock = clock
        self._rereading: dict[int, asyncio.Task[None]] = {}  # races being read again
        self._again: set[int] = set()  # ... and heard of again meanwhile

    def heard(self, race_id: int) -> None:
        """Another process changed the race's rows: read it again soon, draw it if this
        process runs it, and end it if no one races any more (never blocks; changes heard
        while it is read are read once more after)."""
        if race_id in self._rereading:
            self._again.add(race_id)
            return
        task = asyncio.get_running_loop().create_task(self._heard(race_id))
        self._rereading[race_id] = task

    async def _heard(self, race_id: int) -> None:
        memory = self._memory
        try:
            while True:
                self._again.discard(race_id)
                await memory.load()
                async with memory.members:
                    race = await memory.reread(race_id)
                if race is not None:
                    memory.changed(race)
                    if race.state == "running" and not race.racing():
                        await self._clock.settle(race)
                if race_id not in self._again:
                    return
        except (StoreError, StorageError, RaceError) as exc:
            log.warning("race %s could not be read again: %s", race_id, exc)
        finally:
            del self._rereading[race_id]

    async def catch_up(self) -> None:
        """Changes may have been missed (``GameStore.follow_changes``): every open race
        read again, those stored and those in memory."""
        stored = {row.race_id for row, _ in await self._memory.store.open_races()}
        for race_id in stored | {r.race_id for r in self._memory.races.values() if r.open}:
            self.heard(race_id)

    async def settled(self, timeout: float) -> None:
        """Wait for the races being read again, ``timeout`` seconds at most."""
        if self._rereading:
            await asyncio.wait(list(self._rereading.values()), timeout=timeout)

    async def close(self) -> None:
        """Stop reading races again (the service closes)."""
        for task in list(self._rereading.values()):
            task.cancel()
        for task in list(self._rereading.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await task
