"""A race's lobby (``RaceLobby``): a race opened in a channel by its host, players joining
and leaving it, its start by the host; and leaving a race while it runs."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Final

from engine.deal import DealNumberError, check_deal_number

from ...store import RaceRow, computer_id
from ..errors import BadInputError, RaceError
from ..movelist import DEFAULT_VARIANT
from ..proofs import DealProofs
from ..wording import sentence
from .clock import RaceClock
from .computer import check_pace
from .contract import (
    DEFAULT_LIMIT_MINUTES,
    DEFAULT_LOBBY_MINUTES,
    MAX_RACERS,
    MIN_RACERS,
    RaceView,
    check_options,
)
from .memory import RacesInMemory, write
from .play import RaceGames
from .state import Race, Racer, view_of

RANDOM_DEAL_MAX: Final = 999_999_999


class RaceLobby:
    """The lobbies of ``memory``'s races: who races in which, until they start."""

    def __init__(
        self,
        memory: RacesInMemory,
        clock: RaceClock,
        games: RaceGames,
        now: Callable[[], datetime],
        rng: random.Random,
        proofs: DealProofs,
        with_computer: bool,
    ) -> None:
        """``with_computer``: whether a race may have the computer racer."""
        self._memory = memory
        self._clock = clock
        self._games = games
        self._now = now
        self._rng = rng
        self._proofs = proofs
        self._with_computer = with_computer

    async def in_channel(self, channel_id: int) -> int | None:
        """The race open (in its lobby or running) in ``channel_id``, if there is one."""
        await self._memory.load()
        races = self._memory.races.values()
        found = (r for r in races if r.open and r.row.channel_id == channel_id)
        return next((race.race_id for race in found), None)

    async def open(
        self,
        host_id: int,
        guild_id: int | None,
        channel_id: int,
        deal_number: int | None = None,
        *,
        limit_minutes: int = DEFAULT_LIMIT_MINUTES,
        capacity: int = MAX_RACERS,
        lobby_minutes: int = DEFAULT_LOBBY_MINUTES,
        computer_pace_s: int | None = None,
    ) -> RaceView:
        """``Races.open``."""
        check_options(limit_minutes, capacity, lobby_minutes)
        check_pace(computer_pace_s, self._with_computer)
        if deal_number is not None:
            try:
                check_deal_number(deal_number)
            except DealNumberError as exc:
                raise BadInputError(sentence(str(exc))) from None
        memory = self._memory
        await memory.load()
        memory.check_free(host_id, channel_id)
        note = ""
        if deal_number is None:
            deal_number = self._rng.randint(1, RANDOM_DEAL_MAX)
            found = await self._proofs.winnable_from(deal_number)
            if found is not None:
                deal_number, note = found[0], " · proven winnable"
        async with memory.members:
            memory.check_free(host_id, channel_id)
            now = self._now()
            row = RaceRow(
                race_id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                variant=DEFAULT_VARIANT,
                deal_number=deal_number,
                limit_s=limit_minutes * 60,
                capacity=capacity,
                state="lobby",
                created_at=now,
                starts_at=now + timedelta(minutes=lobby_minutes),
                computer_pace_s=computer_pace_s,
            )
            race = await self._opened(row)
        memory.changed(race)
        return view_of(race, f"Race {race.race_id} opened: deal {deal_number}{note}")

    async def _opened(self, row: RaceRow) -> Race:
        """The race of ``row`` written and kept, its host (and computer) in (members lock
        held)."""
        race_id = await write(self._memory.store.open_race(row))
        race = Race(replace(row, race_id=race_id), "lobby")
        race.racers[row.host_id] = Racer(row.host_id, row.created_at)
        if row.computer_pace_s is not None:
            race.racers[computer_id(race_id)] = Racer(computer_id(race_id), row.created_at)
        self._memory.races[race_id] = race
        self._memory.of_player[row.host_id] = race_id
        return race

    async def set_message(self, race_id: int, message_id: int) -> None:
        """Where the race's lobby (then its standings) is shown, kept for a restart."""
        race = await self._memory.race(race_id)
        race.message_id = message_id
        await write(self._memory.store.set_message(race_id, message_id))

    async def join(self, race_id: int, user_id: int) -> RaceView:
        memory = self._memory
        await memory.load()
        async with memory.members:
            race = await memory.race(race_id)
            if user_id in race.racers and race.open:
                raise RaceError(f"You are in race {race_id} already.")
            if race.state != "lobby":
                raise RaceError(
                    f"Race {race_id} has {_why_not_in_lobby(race)}: it can't be joined now."
                )
            memory.check_free(user_id)
            if len(race.racers) >= race.row.capacity:
                raise RaceError(f"Race {race_id} is full ({race.row.capacity} racers).")
            now = self._now()
            await write(memory.store.add_racer(race_id, user_id, now))
            race.racers[user_id] = Racer(user_id, now)
            memory.of_player[user_id] = race_id
        memory.changed(race)
        return view_of(race, f"<@{user_id}> joined")

    async def leave(self, race_id: int, user_id: int) -> RaceView:
        """``Races.leave``."""
        memory = self._memory
        await memory.load()
        async with memory.members:
            race = await memory.race(race_id)
            racer = race.racers.get(user_id)
            if racer is None or not race.open or racer.status not in ("joined", "racing"):
                raise RaceError(f"You are not in race {race_id} now, so there is nothing to leave.")
            if race.state == "lobby":
                message = await self._leave_lobby(race, racer)
            else:
                async with memory.locks(user_id):
                    await self._games.save(race, racer, "left")
                message = f"<@{user_id}> left the race with {racer.line().score} cards home"
                memory.of_player.pop(user_id, None)
                if not race.racing():
                    await self._clock.end(race, "over")
        memory.changed(race)
        return view_of(race, message)

    async def _leave_lobby(self, race: Race, racer: Racer) -> str:
        if racer.user_id == race.row.host_id:
            await self._clock.end(race, "cancelled")
            return "The host left, so the race is cancelled"
        await write(self._memory.store.remove_racer(race.race_id, racer.user_id))
        del race.racers[racer.user_id]
        self._memory.of_player.pop(racer.user_id, None)
        return f"<@{racer.user_id}> left"

    async def start(self, race_id: int, user_id: int | None) -> RaceView:
        """``Races.start``."""
        memory = self._memory
        await memory.load()
        async with memory.members:
            race = await memory.race(race_id)
            if user_id is not None and user_id != race.row.host_id:
                raise RaceError(f"Only the host, <@{race.row.host_id}>, can start this race.")
            if race.state != "lobby":
                raise RaceError(f"Race {race_id} has {_why_not_in_lobby(race)}.")
            if len(race.racers) < MIN_RACERS and user_id is not None:
                raise RaceError(f"A race needs {MIN_RACERS} racers at least: wait for one.")
            message = await self._clock.kick_off(race)
        memory.changed(race)
        return view_of(race, message)


def _why_not_in_lobby(race: Race) -> str:
    """What became of ``race``, which is no longer in its lobby ("Race 3 has ...")."""
    return {
        "running": "started already",
        "over": "ended",
        "cancelled": "been cancelled",
    }.get(race.state, "not opened yet")
