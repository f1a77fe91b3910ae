"""The racers' games (``RaceGames``): a racer's command on their own game of the race's
deal (a move, a deal, an undo, the safe moves), checked, played and stored before it
answers; their board; the moves to offer them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Final

from engine import (
    DEAL,
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Status,
    parse_move,
)

from ...store import RacerStatus, StoreError
from ..entry import GameInMemory, stored_status
from ..errors import RaceError, StaleVersionError
from ..wording import no_safe_move, played, sentence
from .clock import RaceClock
from .contract import NOT_IN_RACE, NOT_RACING, RaceBoard
from .memory import RacesInMemory, storage_failure, write
from .state import Race, Racer, board_of, restore
from .sync import RaceSync

REREAD_WAIT: Final = 0.5  # seconds a racer's command waits for a race being read again


class RaceGames:
    """The games of the racers of ``memory``'s races, at the service's clock ``now``."""

    def __init__(
        self,
        memory: RacesInMemory,
        clock: RaceClock,
        sync: RaceSync,
        now: Callable[[], datetime],
    ) -> None:
        self._memory = memory
        self._clock = clock
        self._sync = sync
        self._now = now

    async def race_of(self, user_id: int) -> int | None:
        """The race ``user_id`` is racing in (started, and they still play), or None. A
        race being read again after another process changed it (``heard``: a start made
        through another shard a moment ago) is waited for, ``REREAD_WAIT`` at most."""
        await self._memory.load()
        await self._sync.settled(REREAD_WAIT)
        race_id = self._memory.of_player.get(user_id)
        race = None if race_id is None else self._memory.races.get(race_id)
        if race is None or race.state != "running":
            return None
        racer = race.racers.get(user_id)
        return race_id if racer is not None and racer.status == "racing" else None

    async def board(self, race_id: int, user_id: int) -> RaceBoard:
        """A racer's board in ``race_id`` (also after they finished or the race ended)."""
        race = await self._memory.race(race_id)
        racer = race.racers.get(user_id)
        if racer is None:
            raise RaceError(f"You are not a racer of race {race_id}.")
        if racer.entry is None or race.started_at is None:  # (its start still being written)
            raise RaceError(f"Race {race_id} hasn't started yet: your board comes at the start.")
        async with self._memory.locks(user_id):
            return board_of(race, racer, None, self._now())

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
        race = await self._memory.race(race_id)
        racer = race.racers.get(user_id)
        if racer is None or racer.entry is None:
            raise RaceError(NOT_RACING)
        async with self._memory.locks(user_id):
            try:
                message = await self._turn(race, racer, action, text, expected_version)
            except _Stale:  # moved through another process: as stored now, once more
                await write(self._memory.reread_racer(race, racer))
                message = await self._turn(race, racer, action, text, expected_version)
            board = board_of(race, racer, message, self._now())
        if racer.status != "racing":
            await self._clock.settle(race)
        self._memory.changed(race)
        return board

    async def _turn(
        self, race: Race, racer: Racer, action: str, text: str, expected: int | None
    ) -> str:
        """``play``'s checks and action on the racer's game (their lock held)."""
        entry = racer.entry
        assert entry is not None
        if expected is not None and expected != entry.version:
            raise StaleVersionError()
        ends = race.ends_at
        if racer.status != "racing" or race.state != "running":
            raise RaceError(f"Your race is over for you: {_why_not_racing(racer.status)}.")
        if ends is not None and self._now() >= ends:
            raise RaceError("Time is up: the race is over.")
        return await self._act(race, racer, entry, action, text)

    async def _act(
        self, race: Race, racer: Racer, entry: GameInMemory, action: str, text: str
    ) -> str:
        game = entry.game
        if action == "undo":
            point = entry.undo_point()
            if point is None:
                raise RaceError("There is nothing to undo: this is the start of your game.")
            entry.undo_count += 1
            while game.move_count > point:
                entry.undo()
            entry.undone.clear()  # no redo in a race
            entry.refresh()
            await self.save(race, racer, "racing")
            return "Undid your last move"
        moves: list[Move] = []
        if action == "move":
            moves = [_parsed(entry, text)]
        elif action == "deal":
            try:
                game.kind(DEAL)
            except IllegalMoveError as exc:
                raise RaceError(sentence(str(exc))) from None
            moves = [DEAL]
        elif action == "auto":
            if not game.safe_moves():
                raise RaceError(no_safe_move(game))
        else:
            raise RaceError(NOT_IN_RACE)
        labels = [str(m) for m in moves]
        for move in moves:
            entry.play(move, False)
        while safe := game.safe_moves():
            for move in safe:
                labels.append(str(move))
                entry.play(move, bool(moves) or len(labels) > 1)
        entry.refresh()
        won = entry.state is Status.WON
        await self.save(race, racer, "won" if won else "racing")
        return played(labels) + (" · You finished the deal!" if won else "")

    async def save(self, race: Race, racer: Racer, status: RacerStatus) -> None:
        """Write the racer's game as it now stands (player lock held); on a failure the
        game goes back to what was stored, and the refusal says the database failed."""
        entry = racer.entry
        assert entry is not None and race.started_at is not None
        before = racer.saved
        expected = entry.version if before is None else before.version
        racer.status = status
        racer.elapsed_s = max(0.0, (self._now() - race.started_at).total_seconds())
        entry.version = expected + 1
        entry.status = stored_status(entry.state)
        row = racer.row(race.race_id)
        try:
            saved = await self._memory.store.save_racer(row, expected)
        except StoreError as exc:
            restore(racer)
            raise storage_failure(exc) from exc
        if not saved:  # moved on meanwhile (another process), or the race is over
            restore(racer)
            raise _Stale
        racer.saved = row

    async def move_choices(self, race_id: int, user_id: int, typed: str, limit: int) -> list[str]:
        """The racer's legal moves (their notation) containing ``typed``."""
        race = await self._memory.race(race_id)
        racer = race.racers.get(user_id)
        if racer is None or racer.entry is None or racer.status != "racing":
            return []
        wanted = typed.strip().casefold()
        moves = [str(m) for m in racer.entry.game.legal_moves()]
        return [m for m in moves if wanted in m.casefold()][:limit]


class _Stale(Exception):
    """A racer's write found their row at another version (moved through another process)
    or the race no longer running: nothing was written."""


def _parsed(entry: GameInMemory, text: str) -> Move:
    if len(text) > 100:
        raise RaceError("That is too long for a move: type FROM TO, like 'r3 a5'.")
    try:
        move = parse_move(entry.game, text)
        entry.game.kind(move)
    except (InvalidMoveError, AmbiguousMoveError, IllegalMoveError) as exc:
        raise RaceError(sentence(str(exc))) from None
    return move


def _why_not_racing(status: RacerStatus) -> str:
    """Why a racer of ``status`` no longer races ("Your race is over for you: ...")."""
    return {
        "won": "you finished the deal",
        "left": "you left it",
        "timed_out": "time is up",
    }.get(status, "you are not racing")
