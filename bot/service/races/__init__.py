"""``Races``: races among players on one deal (``/reel race``; ``docs/races.md``).

A race is opened in a channel by its host, with a deal, a time limit and a capacity;
players join its lobby; it starts when the host says so or at the time set. Each
racer then plays the deal as a game of their own (a ``GameInMemory``, as a current game
is), stored in the race's tables and never in ``current_games``: a race never
touches a player's current game or their daily. A player is in at most one race at a
time (lobbies included). The race ends when no one is racing any more (everyone won
or left) or at its time limit; racers still playing then keep their score ("timed
out"). Places: ``contract.ranked``.

Everything of an open race is kept in memory and written before a call answers; after
a restart, the open races are read back (lazily, at the first call) and their games
replayed from their moves, so the timers, which are stored times, simply go on.

The package, by job: ``Races`` (here) is what the front ends call, and hands each call
to one of its parts: the lobby (``lobby``: open, join, leave, start), the racers' games
(``play``), the clock (``clock``: a race's start and end, and the tick of the races),
the rereads of the races other processes changed (``sync``), the computer racer
(``computer``); they share the races in memory (``memory``: the races, who is in which,
the locks), a race in memory and rebuilt from its rows (``state``), what the front ends
see of it (``contract``); ``replays`` reads a race's games once it is over.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime

from ...store import RaceStore, StoreError
from ..errors import RaceError
from ..pool import SolverPool
from ..proofs import DealProofs
from .clock import RaceClock
from .computer import ComputerRacers
from .contract import (
    DEFAULT_LIMIT_MINUTES,
    DEFAULT_LOBBY_MINUTES,
    HINTS_OFF,
    MAX_RACERS,
    NOT_IN_RACE,
    NOT_RACING,
    RACE_SETTINGS,
    RaceBoard,
    RaceStats,
    RaceView,
)
from .lobby import RaceLobby
from .memory import RacesInMemory, storage_failure
from .play import RaceGames
from .state import view_of
from .sync import RaceSync

__all__ = [
    "HINTS_OFF",
    "NOT_IN_RACE",
    "NOT_RACING",
    "RACE_SETTINGS",
    "RaceBoard",
    "RaceError",
    "RaceStats",
    "RaceView",
    "Races",
]


class Races:
    """The races of one service (``GameService.races``); see the module docstring."""

    def __init__(
        self,
        tables: RaceStore,
        clock: Callable[[], datetime],
        rng: random.Random,
        proofs: DealProofs,
        pool: SolverPool | None = None,
    ) -> None:
        """``pool``: where the computer racers think (none: races have no computer)."""
        self._tables = tables
        self._memory = memory = RacesInMemory(tables)
        self.locks = memory.locks
        self.computers = None if pool is None else ComputerRacers(pool, self.play, self.leave)
        self._clock = RaceClock(memory, clock, self.computers)
        self._sync = RaceSync(memory, self._clock)
        self._games = RaceGames(memory, self._clock, self._sync, clock)
        self._lobby = RaceLobby(
            memory, self._clock, self._games, clock, rng, proofs, self.computers is not None
        )

    @property
    def follows_others(self) -> bool:
        """Whether other processes' races are followed too (their changes heard)."""
        return self._memory.follows_others

    @follows_others.setter
    def follows_others(self, follows: bool) -> None:
        self._memory.follows_others = follows

    def only(self, owns: Callable[[int | None], bool]) -> None:
        """Run only the races of the servers ``owns(guild_id)`` (None: a DM) says are this
        process's: with the bot sharded over several processes, each one starts and ends
        only its own shards' races and draws only their standings (docs/scaling.md). It
        follows the others' races as their rows change (``heard``): a racer's commands in
        a server of its shards play their race game here, and one race at a time holds
        for a player across shards (``follows_others``: on a database whose changes are
        heard, PostgreSQL; on a file shared by shards, each process loads its own only)."""
        self._memory.owns = owns

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the races of server ``guild_id`` (see ``only``)."""
        return self._memory.owns(guild_id)

    async def in_channel(self, channel_id: int) -> int | None:
        """The race open (in its lobby or running) in ``channel_id``, if there is one."""
        return await self._lobby.in_channel(channel_id)

    def on_change(self, listener: Callable[[int], None]) -> None:
        """Call ``listener(race_id)`` after each stored change of a race this process runs
        (a racer joined or left, it started or ended, a racer's game moved), whichever
        process made it (``heard``). It must not block."""
        self._memory.listen(listener)

    # ------------------------------------------------------------------ the lobby

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
        """Open a race in ``channel_id`` with ``host_id`` as its first racer, and the
        computer as the second if ``computer_pace_s`` is given (a move every that many
        seconds: computer.py). A random deal is the first the solver proves winnable
        from a random number (unproven if the search fails)."""
        return await self._lobby.open(
            host_id,
            guild_id,
            channel_id,
            deal_number,
            limit_minutes=limit_minutes,
            capacity=capacity,
            lobby_minutes=lobby_minutes,
            computer_pace_s=computer_pace_s,
        )

    async def set_message(self, race_id: int, message_id: int) -> None:
        """Where the race's lobby (then its standings) is shown, kept for a restart."""
        await self._lobby.set_message(race_id, message_id)

    async def join(self, race_id: int, user_id: int) -> RaceView:
        return await self._lobby.join(race_id, user_id)

    async def leave(self, race_id: int, user_id: int) -> RaceView:
        """Leave a race: from its lobby, nothing is kept (the host leaving cancels it);
        while it runs, the racer stops and keeps their score at that moment."""
        return await self._lobby.leave(race_id, user_id)

    async def start(self, race_id: int, user_id: int | None) -> RaceView:
        """Start the race: by its host (``user_id``), or by itself at its time (None)."""
        return await self._lobby.start(race_id, user_id)

    async def due(self) -> list[int]:
        """Start the lobbies whose time has come and end the races whose time is up (by
        the service's clock); the ids of the races changed. Called every second or so by
        the front end."""
        return await self._clock.due()

    # ------------------------------------------------------------------ playing

    async def race_of(self, user_id: int) -> int | None:
        """The race ``user_id`` is racing in (started, and they still play), or None. A
        race being read again after another process changed it (``heard``: a start made
        through another shard a moment ago) is waited for, a moment at most."""
        return await self._games.race_of(user_id)

    async def board(self, race_id: int, user_id: int) -> RaceBoard:
        """A racer's board in ``race_id`` (also after they finished or the race ended)."""
        return await self._games.board(race_id, user_id)

    async def play(
        self,
        race_id: int,
        user_id: int,
        action: str,
        text: str = "",
        expected_version: int | None = None,
    ) -> RaceBoard:
        """``action`` on the racer's game: "move" (``text`` in the notation), "deal",
        "undo" (the last command), "auto"; refused once they no longer race."""
        return await self._games.play(race_id, user_id, action, text, expected_version)

    async def move_choices(self, race_id: int, user_id: int, typed: str, limit: int) -> list[str]:
        """The racer's legal moves (their notation) containing ``typed``."""
        return await self._games.move_choices(race_id, user_id, typed, limit)

    # ------------------------------------------------------------------ reading

    async def standings(self, race_id: int) -> RaceView:
        return view_of(await self._memory.race(race_id), None)

    async def open_races(self) -> list[RaceView]:
        """Every race in its lobby or running (a front end redraws them after a restart)."""
        memory = self._memory
        await memory.load()
        return [view_of(r, None) for r in memory.races.values() if r.open and memory.runs(r)]

    async def record(self, user_id: int) -> RaceStats:
        try:
            found = await self._tables.record(user_id)
        except StoreError as exc:
            raise storage_failure(exc) from exc
        return RaceStats(found.played, found.won, found.best_place)

    # ------------------------------------------------------------------ other processes

    def heard(self, race_id: int) -> None:
        """Another process changed the race's rows: read it again soon, draw it if this
        process runs it, and end it if no one races any more (never blocks)."""
        self._sync.heard(race_id)

    async def catch_up(self) -> None:
        """Changes may have been missed (``GameStore.follow_changes``): every open race
        read again, those stored and those in memory."""
        await self._sync.catch_up()

    async def close(self) -> None:
        """Stop reading races again (the service closes)."""
        await self._sync.close()
