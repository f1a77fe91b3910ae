"""The computer racer: the blind player racing people at a human pace (``docs/races.md``).

A race opened with the computer (``Races.open(computer_pace_s=...)``) has one more racer,
whose user id is the race's id negated (``bot.store.computer_id``). It is the blind player
(``engine.solver.blind``): it never sees the stock's order, so it can lose, and it plays
by the race's rules through the race's own calls (``Races.play``), so its moves are
checked, stored and ranked as everyone's. It moves once every ``pace`` seconds of the
race: at each tick of the races (``Races.due``), a move whose time has come is thought
in the solver's worker pool, never on the event loop, then played. When it has no move
left that does not go back to a position it has been in, it leaves the race with its
score, as a player would.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Final

from engine import Game

from .. import jobs
from ..errors import RaceError, ServiceError
from ..pool import POOL_FAILURES, SolverPool

log = logging.getLogger(__name__)

COMPUTER_NAME: Final = "the computer 🤖"
MIN_PACE_S: Final = 2
MAX_PACE_S: Final = 60
DEFAULT_PACE_S: Final = 5
COMPUTER_SAMPLES = 8  # the blind player's budget a move: stock orders tried (tests: fewer)
COMPUTER_NODES = 2_000  # and positions searched in each

Play = Callable[[int, int, str, str], Awaitable[object]]
Leave = Callable[[int, int], Awaitable[object]]


def check_pace(pace_s: int | None, available: bool) -> None:
    """``RaceError`` if a race can't have the computer at ``pace_s`` (None: no computer)."""
    if pace_s is None:
        return
    if not MIN_PACE_S <= pace_s <= MAX_PACE_S:
        raise RaceError(
            f"The computer plays a move every {MIN_PACE_S} to {MAX_PACE_S} seconds, not {pace_s}."
        )
    if not available:
        raise RaceError("The computer can't race here.")


class ComputerRacers:
    """The computer racers of one service's races: when each moves next, and the move
    under way, if any (one at a time per race)."""

    def __init__(self, pool: SolverPool, play: Play, leave: Leave) -> None:
        self._pool = pool
        self._play = play
        self._leave = leave
        self._next: dict[int, datetime] = {}  # race id -> when its computer moves next
        self._thinking: dict[int, asyncio.Task[None]] = {}

    def tick(self, race_id: int, player: int, game: Game, pace_s: int, now: datetime) -> None:
        """Start the computer's next move in race ``race_id`` (the computer is ``player``,
        its game ``game``) if its time has come and none is under way. Its first move
        comes ``pace_s`` seconds after the first tick of the race."""
        due = self._next.setdefault(race_id, now + timedelta(seconds=pace_s))
        if now < due or race_id in self._thinking:
            return
        self._next[race_id] = now + timedelta(seconds=pace_s)
        task = asyncio.ensure_future(self._turn(race_id, player, game.copy()))
        self._thinking[race_id] = task
        task.add_done_callback(lambda _: self._thinking.pop(race_id, None))

    def forget(self, race_id: int) -> None:
        """The race is over: nothing more to play in it."""
        self._next.pop(race_id, None)

    async def _turn(self, race_id: int, player: int, game: Game) -> None:
        try:
            move = await self._pool.run(jobs.blind_race_job, game, COMPUTER_SAMPLES, COMPUTER_NODES)
            if move is None:  # no move left that does not go back: it gives up
                await self._leave(race_id, player)
            else:
                await self._play(race_id, player, "deal" if move == "deal" else "move", move)
        except asyncio.CancelledError:
            raise
        except (ServiceError, *POOL_FAILURES) as exc:  # the race ended meanwhile, say
            log.info("race %s: the computer's move was not played: %s", race_id, exc)
        except Exception:
            log.exception("race %s: the computer's move failed", race_id)

    async def settled(self) -> None:
        """Wait for the moves under way (tests, and a clean stop)."""
        while self._thinking:
            await asyncio.gather(*self._thinking.values(), return_exceptions=True)

    async def close(self) -> None:
        """Stop the moves under way."""
        for task in list(self._thinking.values()):
            task.cancel()
        await asyncio.gather(*self._thinking.values(), return_exceptions=True)
