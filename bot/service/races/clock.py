"""A race's times (``RaceClock``): its start, its end (at its time limit, or when no one
races any more), and the tick of the races (``due``) that starts the lobbies whose time
has come, ends the races whose time is up and moves the computer racers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Final

from ...store import RaceState, computer_id
from ..entry import dealt
from ..errors import StorageError
from .computer import ComputerRacers
from .contract import MIN_RACERS, ranked
from .memory import RacesInMemory, write
from .state import Race, restore

ENDING_TRIES: Final = 3  # an end written again after a racer moved in another process


class RaceClock:
    """Starts and ends the races of ``memory`` by the service's clock ``now``."""

    def __init__(
        self,
        memory: RacesInMemory,
        now: Callable[[], datetime],
        computers: ComputerRacers | None,
    ) -> None:
        self._memory = memory
        self._now = now
        self._computers = computers

    async def kick_off(self, race: Race) -> str:
        """Start ``race`` from its lobby (members lock held), or cancel it if too few
        joined; what happened, for the answer."""
        if len(race.racers) < MIN_RACERS:
            await self.end(race, "cancelled")
            return "Nobody joined in time, so the race is cancelled"
        await self._begin(race)
        return f"Race {race.race_id} is on: deal {race.row.deal_number}, good luck!"

    async def _begin(self, race: Race) -> None:
        now = self._now()
        for racer in race.racers.values():
            entry = dealt(race.row.deal_number, race.row.guild_id, now, auto_aces=True)
            entry.version = 1
            racer.entry, racer.status = entry, "racing"
        rows = [r.row(race.race_id) for r in race.racers.values()]
        try:
            await write(self._memory.store.start_race(race.race_id, now, rows))
        except BaseException:
            for racer in race.racers.values():
                racer.entry, racer.status = None, "joined"
            raise
        for racer, row in zip(race.racers.values(), rows, strict=True):
            racer.saved = row
        race.state, race.started_at = "running", now

    async def end(self, race: Race, state: RaceState) -> None:
        """End ``race`` (members lock held): racers still playing are timed out, keeping
        their score; places given; all of it in one write. Each racer as stored first (a
        racer may have moved through another process's shard); if one moved meanwhile the
        write applies nothing, and it is read and tried again."""
        for _ in range(ENDING_TRIES - 1):
            await write(self._memory.reread(race.race_id))
            if await self._ending(race, state):
                return
        await write(self._memory.reread(race.race_id))
        if not await self._ending(race, state):
            raise StorageError(reason="busy")

    async def _ending(self, race: Race, state: RaceState) -> bool:
        """One try of ``end``: whether every racer's row was at the version expected."""
        if not race.open:
            return True  # ended by now (read from the store)
        now = self._now()
        for racer in race.racing():
            racer.status = "timed_out"
        if state == "over":
            for place, line in ranked(r.line() for r in race.racers.values()):
                race.racers[line.user_id].place = place
        pairs = []
        for racer in race.racers.values():
            expected = 0 if racer.saved is None else racer.saved.version
            if racer.entry is not None:
                racer.entry.version = expected + 1
            pairs.append((racer.row(race.race_id), expected))
        if not await write(self._memory.store.end_race(race.race_id, state, now, pairs)):
            for racer in race.racers.values():
                restore(racer)
            return False
        race.state, race.ended_at = state, now
        of_player = self._memory.of_player
        for racer in race.racers.values():
            racer.saved = pairs.pop(0)[0]
            if of_player.get(racer.user_id) == race.race_id:
                del of_player[racer.user_id]
        self._memory.forget_old()
        return True

    async def settle(self, race: Race) -> None:
        """After a racer finished: end the race if no one is racing any more (by the
        process that runs it)."""
        memory = self._memory
        async with memory.members:
            if race.state == "running" and not race.racing() and memory.runs(race):
                await self.end(race, "over")
            for racer in race.racers.values():
                if racer.status != "racing" and memory.of_player.get(racer.user_id) == race.race_id:
                    del memory.of_player[racer.user_id]

    async def due(self) -> list[int]:
        """Start the lobbies whose time has come and end the races whose time is up (by
        the service's clock); the ids of the races changed."""
        await self._memory.load()
        now = self._now()
        changed = []
        for race in [r for r in self._memory.races.values() if self._memory.runs(r)]:
            if race.state == "lobby" and now >= race.row.starts_at:
                if not await self._start_due(race):
                    continue  # started or cancelled meanwhile
                changed.append(race.race_id)
            elif race.state == "running" and (ends := race.ends_at) and now >= ends:
                await self._time_up(race)
                changed.append(race.race_id)
            elif race.state == "running":
                self._computer_turn(race, now)
        return changed

    async def _start_due(self, race: Race) -> bool:
        """Start (or cancel) a lobby at its time; False if it left its lobby meanwhile."""
        async with self._memory.members:
            if race.state != "lobby":
                return False
            await self.kick_off(race)
        self._memory.changed(race)
        return True

    def _computer_turn(self, race: Race, now: datetime) -> None:
        """The computer's next move in ``race``, if it races and its time has come."""
        pace, computers = race.row.computer_pace_s, self._computers
        racer = race.racers.get(computer_id(race.race_id))
        if pace is None or computers is None or racer is None or racer.entry is None:
            return
        if racer.status == "racing":
            computers.tick(race.race_id, racer.user_id, racer.entry.game, pace, now)
        else:
            computers.forget(race.race_id)

    async def _time_up(self, race: Race) -> None:
        async with self._memory.members:
            if race.state != "running":
                return
            for racer in race.racing():  # wait for a move under way to be written
                async with self._memory.locks(racer.user_id):
                    pass
            await self.end(race, "over")
        self._memory.changed(race)
