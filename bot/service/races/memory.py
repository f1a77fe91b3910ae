"""The races one service holds in memory (``RacesInMemory``): read back from the store
at the first call, brought up to their stored rows when another process changed them,
and who is in which; and a store's failure as the players' ``StorageError`` (``write``).

Locks: a racer's calls run one at a time (``locks``, per player, as the service's); a
race's changes of membership or state (join, leave, start, end) run under one lock for
all races (``members``), taken before any player's lock, never after.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from ...store import RaceStore, StoreError
from ..cache import PlayerLocks
from ..errors import RaceError, StorageError, storage_reason
from .state import Race, Racer, adopt, newer, race_of_rows, racer_of_row

log = logging.getLogger(__name__)
T = TypeVar("T")

KEEP_OVER: Final = 64  # races over kept in memory, for their last standings


class RacesInMemory:
    """The open races (and the last ``KEEP_OVER`` over) by id, the open race of each
    player (``of_player``: a player is in one at a time), the locks, and who is told of
    a race's changes (``listen``)."""

    def __init__(self, store: RaceStore) -> None:
        self.store = store
        self.races: dict[int, Race] = {}
        self.of_player: dict[int, int] = {}  # player -> their open race
        self.members = asyncio.Lock()
        self.locks = PlayerLocks()
        self.owns: Callable[[int | None], bool] = lambda guild_id: True
        self.follows_others = False  # other processes' races too (their changes heard)
        self._listeners: list[Callable[[int], None]] = []
        self._loaded = False

    def runs(self, race: Race) -> bool:
        """Whether this process runs ``race`` (``Races.only``)."""
        return self.owns(race.row.guild_id)

    def listen(self, listener: Callable[[int], None]) -> None:
        """Call ``listener(race_id)`` at each change of a race this process runs."""
        self._listeners.append(listener)

    def changed(self, race: Race) -> None:
        """Tell the listeners ``race`` changed, if this process runs it."""
        if not self.runs(race):
            return  # its own shard's process draws it, having heard of the change
        for listener in self._listeners:
            try:
                listener(race.race_id)
            except Exception:
                log.exception("a listener of race changes failed")

    def check_free(self, user_id: int, channel_id: int | None = None) -> None:
        """``RaceError`` if ``user_id`` is in a race already, or ``channel_id`` has one."""
        busy = self.of_player.get(user_id)
        if busy is not None:
            raise RaceError(
                f"You are already in race {busy}: a player is in one race at a time "
                "(leave it first with its Leave button)."
            )
        for race in self.races.values():
            if race.open and race.row.channel_id == channel_id:
                raise RaceError(
                    f"Race {race.race_id} is already open in this channel: join it, "
                    "or open yours when it is over."
                )

    def index(self, race: Race) -> None:
        """Who is in ``race`` (``of_player``) as it now stands."""
        for racer in race.racers.values():
            if race.open and racer.status in ("joined", "racing"):
                self.of_player[racer.user_id] = race.race_id
            elif self.of_player.get(racer.user_id) == race.race_id:
                del self.of_player[racer.user_id]

    def forget_old(self) -> None:
        """Drop the races over but the last ``KEEP_OVER``."""
        over = [r for r in self.races.values() if not r.open]
        for race in over[: max(0, len(over) - KEEP_OVER)]:
            del self.races[race.race_id]

    async def load(self) -> None:
        """Read the open races back from the store, once (after a restart)."""
        if self._loaded:
            return
        async with self.members:
            if self._loaded:
                return
            try:
                found = await self.store.open_races()
            except StoreError as exc:
                raise storage_failure(exc) from exc
            for row, racers in found:  # another shard's too, if followed (``Races.only``)
                if not (self.follows_others or self.owns(row.guild_id)):
                    continue
                race = race_of_rows(row, racers)
                self.races[race.race_id] = race
                self.index(race)
            self._loaded = True

    async def race(self, race_id: int) -> Race:
        """Race ``race_id``, from memory or the store; ``RaceError`` if there is none."""
        await self.load()
        race = self.races.get(race_id)
        if race is None:
            found = await write(self.store.load_race(race_id))
            if found is None:
                raise RaceError(f"There is no race {race_id}.")
            race = race_of_rows(*found)
            self.races[race_id] = race
        return race

    async def reread(self, race_id: int) -> Race | None:
        """The race brought up to its stored rows where they are further on (members lock
        held; each racer replaced under their own lock); None if there is no such race."""
        found = await self.store.load_race(race_id)
        if found is None:
            return None
        row, stored = found
        race = self.races.get(race_id)
        if race is None:
            race = self.races[race_id] = race_of_rows(row, stored)
        else:
            adopt(race, row)
            for racer_row in stored:
                racer = race.racers.get(racer_row.user_id)
                if racer is None or newer(racer_row, racer):
                    async with self.locks(racer_row.user_id):
                        race.racers[racer_row.user_id] = racer_of_row(race.row, racer_row)
            if race.state in ("lobby", "cancelled"):  # left the lobby elsewhere
                kept = {r.user_id for r in stored}
                race.racers = {u: r for u, r in race.racers.items() if u in kept}
        self.index(race)
        return race

    async def reread_racer(self, race: Race, racer: Racer) -> None:
        """The racer as stored (their lock held: no members lock), and the race's state."""
        found = await self.store.load_race(race.race_id)
        if found is None:
            return
        row, stored = found
        adopt(race, row)
        for racer_row in stored:
            if racer_row.user_id == racer.user_id and newer(racer_row, racer):
                fresh = racer_of_row(race.row, racer_row)
                racer.entry, racer.status, racer.saved = fresh.entry, fresh.status, fresh.saved
                racer.elapsed_s, racer.place = fresh.elapsed_s, fresh.place


async def write(call: Awaitable[T]) -> T:
    """Await a call of the store; its failure is the players' ``StorageError``."""
    try:
        return await call
    except StoreError as exc:
        raise storage_failure(exc) from exc


def storage_failure(exc: StoreError) -> StorageError:
    """The players' refusal for a failure of the store (logged)."""
    log.error("database failure in a race: %s", exc, exc_info=exc)
    return StorageError(reason=storage_reason(exc))
