"""``Races``: races among players on one deal (``/reel race``; ``docs/races.md``).

A race is opened in a channel by its host, with a deal, a time limit and a capacity;
players join its lobby; it starts when the host says so or at the time set. Each
racer then plays the deal as a game of their own (an ``Entry``, as a current game is
in memory), stored in the race's tables and never in ``current_games``: a race never
touches a player's current game or their daily. A player is in at most one race at a
time (lobbies included). The race ends when no one is racing any more (everyone won
or left) or at its time limit; racers still playing then keep their score ("timed
out"). Places: ``contract.ranked``.

Everything of an open race is kept in memory and written before a call answers; after
a restart, the open races are read back (lazily, at the first call) and their games
replayed from their moves, so the timers, which are stored times, simply go on.

Locks: a racer's calls run one at a time (``locks``, per player, as the service's);
a race's changes of membership or state (join, leave, start, end) run under one
lock for all races (``_members``), taken before any player's lock, never after.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Final, TypeVar

from engine import (
    DEAL,
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Status,
    parse_move,
    variant_by_code,
)
from engine.deal import DealNumberError, check_deal_number

from ...store import (
    RaceRow,
    RacerStatus,
    RaceState,
    RaceStore,
    StoreError,
    computer_id,
)
from ..cache import PlayerLocks
from ..contract import Settings
from ..entry import Entry, dealt, stored_status
from ..errors import BadInputError, StaleVersionError, StorageError, storage_reason
from ..movelist import DEFAULT_VARIANT
from ..pool import SolverPool
from ..proofs import DealProofs
from ..views import game_view
from ..wording import no_safe_move, played, sentence
from .computer import ComputerRacers, check_pace
from .contract import (
    DEFAULT_LIMIT_MINUTES,
    DEFAULT_LOBBY_MINUTES,
    MAX_RACERS,
    MIN_RACERS,
    RaceBoard,
    RaceError,
    RaceStats,
    RaceView,
    check_options,
    ranked,
)
from .state import Race, Racer, adopt, entry_of_row, newer, race_of_rows, racer_of_row

log = logging.getLogger(__name__)
T = TypeVar("T")

RANDOM_DEAL_MAX: Final = 999_999_999
KEEP_OVER: Final = 64  # races over kept in memory, for their last standings
ENDING_TRIES: Final = 3  # an end written again after a racer moved in another process
REREAD_WAIT: Final = 0.5  # seconds a racer's command waits for a race being read again
RACE_SETTINGS: Final = Settings(auto_aces=True)  # the same for everyone (docs/races.md)
NOT_RACING: Final = "You are not racing now: join a race with its Join button, or open one."
HINTS_OFF: Final = "Hints are off in races: every racer plays on their own."
NOT_IN_RACE: Final = (
    "That is not available in a race: your race board has Deal, Undo, Auto and Leave race."
)


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
        self._clock = clock
        self._rng = rng
        self._proofs = proofs
        self._races: dict[int, Race] = {}
        self._of_player: dict[int, int] = {}  # player -> their open race
        self._members = asyncio.Lock()
        self._loaded = False
        self.locks = PlayerLocks()
        self._listeners: list[Callable[[int], None]] = []
        self._owns: Callable[[int | None], bool] = lambda guild_id: True
        self.computers = None if pool is None else ComputerRacers(pool, self._move, self.leave)
        self.follows_others = False  # other processes' races too (their changes heard)
        self._rereading: dict[int, asyncio.Task[None]] = {}  # races being read again
        self._again: set[int] = set()  # ... and heard of again meanwhile

    def only(self, owns: Callable[[int | None], bool]) -> None:
        """Run only the races of the servers ``owns(guild_id)`` (None: a DM) says are this
        process's: with the bot sharded over several processes, each one starts and ends
        only its own shards' races and draws only their standings (docs/scaling.md). It
        follows the others' races as their rows change (``heard``): a racer's commands in
        a server of its shards play their race game here, and one race at a time holds
        for a player across shards (``follows_others``: on a database whose changes are
        heard, PostgreSQL; on a file shared by shards, each process loads its own only)."""
        self._owns = owns

    def _runs(self, race: Race) -> bool:
        return self._owns(race.row.guild_id)

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the races of server ``guild_id`` (see ``only``)."""
        return self._owns(guild_id)

    async def in_channel(self, channel_id: int) -> int | None:
        """The race open (in its lobby or running) in ``channel_id``, if there is one."""
        await self._load()
        found = (r for r in self._races.values() if r.open and r.row.channel_id == channel_id)
        return next((race.race_id for race in found), None)

    # ------------------------------------------------------------------ listening

    def on_change(self, listener: Callable[[int], None]) -> None:
        """Call ``listener(race_id)`` after each stored change of a race this process runs
        (a racer joined or left, it started or ended, a racer's game moved), whichever
        process made it (``heard``). It must not block."""
        self._listeners.append(listener)

    def _changed(self, race: Race) -> None:
        if not self._runs(race):
            return  # its own shard's process draws it, having heard of the change
        for listener in self._listeners:
            try:
                listener(race.race_id)
            except Exception:
                log.exception("a listener of race changes failed")

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
        check_options(limit_minutes, capacity, lobby_minutes)
        check_pace(computer_pace_s, self.computers is not None)
        if deal_number is not None:
            try:
                check_deal_number(deal_number)
            except DealNumberError as exc:
                raise BadInputError(sentence(str(exc))) from None
        await self._load()
        self._check_free(host_id, channel_id)
        note = ""
        if deal_number is None:
            deal_number = self._rng.randint(1, RANDOM_DEAL_MAX)
            found = await self._proofs.winnable_from(deal_number)
            if found is not None:
                deal_number, note = found[0], " · proven winnable"
        async with self._members:
            self._check_free(host_id, channel_id)
            now = self._clock()
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
            race_id = await self._write(self._tables.open_race(row))
            race = Race(replace(row, race_id=race_id), "lobby")
            race.racers[host_id] = Racer(host_id, now)
            if computer_pace_s is not None:
                race.racers[computer_id(race_id)] = Racer(computer_id(race_id), now)
            self._races[race_id] = race
            self._of_player[host_id] = race_id
        self._changed(race)
        return self._view(race, f"Race {race_id} opened: deal {deal_number}{note}")

    def _check_free(self, user_id: int, channel_id: int | None = None) -> None:
        busy = self._of_player.get(user_id)
        if busy is not None:
            raise RaceError(
                f"You are already in race {busy}: a player is in one race at a time "
                "(leave it first with its Leave button)."
            )
        for race in self._races.values():
            if race.open and race.row.channel_id == channel_id:
                raise RaceError(
                    f"Race {race.race_id} is already open in this channel: join it, "
                    "or open yours when it is over."
                )

    async def set_message(self, race_id: int, message_id: int) -> None:
        """Where the race's lobby (then its standings) is shown, kept for a restart."""
        race = await self._race(race_id)
        race.message_id = message_id
        await self._write(self._tables.set_message(race_id, message_id))

    async def join(self, race_id: int, user_id: int) -> RaceView:
        await self._load()
        async with self._members:
            race = await self._race(race_id)
            if user_id in race.racers and race.open:
                raise RaceError(f"You are in race {race_id} already.")
            if race.state != "lobby":
                raise RaceError(f"Race {race_id} has {_gone(race)}: it can't be joined now.")
            self._check_free(user_id)
            if len(race.racers) >= race.row.capacity:
                raise RaceError(f"Race {race_id} is full ({race.row.capacity} racers).")
            now = self._clock()
            await self._write(self._tables.add_racer(race_id, user_id, now))
            race.racers[user_id] = Racer(user_id, now)
            self._of_player[user_id] = race_id
        self._changed(race)
        return self._view(race, f"<@{user_id}> joined")

    async def leave(self, race_id: int, user_id: int) -> RaceView:
        """Leave a race: from its lobby, nothing is kept (the host leaving cancels it);
        while it runs, the racer stops and keeps their score at that moment."""
        await self._load()
        async with self._members:
            race = await self._race(race_id)
            racer = race.racers.get(user_id)
            if racer is None or not race.open or racer.status not in ("joined", "racing"):
                raise RaceError(f"You are not in race {race_id} now, so there is nothing to leave.")
            if race.state == "lobby":
                message = await self._leave_lobby(race, racer)
            else:
                async with self.locks(user_id):
                    await self._save(race, racer, "left")
                message = f"<@{user_id}> left the race with {racer.line().score} cards home"
                self._of_player.pop(user_id, None)
                if not race.racing():
                    await self._end(race, "over")
        self._changed(race)
        return self._view(race, message)

    async def _leave_lobby(self, race: Race, racer: Racer) -> str:
        if racer.user_id == race.row.host_id:
            await self._end(race, "cancelled")
            return "The host left, so the race is cancelled"
        await self._write(self._tables.remove_racer(race.race_id, racer.user_id))
        del race.racers[racer.user_id]
        self._of_player.pop(racer.user_id, None)
        return f"<@{racer.user_id}> left"

    async def start(self, race_id: int, user_id: int | None) -> RaceView:
        """Start the race: by its host (``user_id``), or by itself at its time (None)."""
        await self._load()
        async with self._members:
            race = await self._race(race_id)
            if user_id is not None and user_id != race.row.host_id:
                raise RaceError(f"Only the host, <@{race.row.host_id}>, can start this race.")
            if race.state != "lobby":
                raise RaceError(f"Race {race_id} has {_gone(race)}.")
            if len(race.racers) < MIN_RACERS:
                if user_id is not None:
                    raise RaceError(f"A race needs {MIN_RACERS} racers at least: wait for one.")
                await self._end(race, "cancelled")
                message = "Nobody joined in time, so the race is cancelled"
            else:
                await self._begin(race)
                message = f"Race {race_id} is on: deal {race.row.deal_number}, good luck!"
        self._changed(race)
        return self._view(race, message)

    async def _begin(self, race: Race) -> None:
        now = self._clock()
        for racer in race.racers.values():
            entry = dealt(race.row.deal_number, race.row.guild_id, now, auto_aces=True)
            entry.version = 1
            racer.entry, racer.status = entry, "racing"
        rows = [r.row(race.race_id) for r in race.racers.values()]
        try:
            await self._write(self._tables.start_race(race.race_id, now, rows))
        except BaseException:
            for racer in race.racers.values():
                racer.entry, racer.status = None, "joined"
            raise
        for racer, row in zip(race.racers.values(), rows, strict=True):
            racer.saved = row
        race.state, race.started_at = "running", now

    async def _end(self, race: Race, state: RaceState) -> None:
        """End ``race`` (members lock held): racers still playing are timed out, keeping
        their score; places given; all of it in one write. Each racer as stored first (a
        racer may have moved through another process's shard); if one moved meanwhile the
        write applies nothing, and it is read and tried again."""
        for _ in range(ENDING_TRIES - 1):
            await self._write(self._reread(race.race_id))
            if await self._ending(race, state):
                return
        await self._write(self._reread(race.race_id))
        if not await self._ending(race, state):
            raise StorageError(reason="busy")

    async def _ending(self, race: Race, state: RaceState) -> bool:
        """One try of ``_end``: whether every racer's row was at the version expected."""
        if not race.open:
            return True  # ended by now (read from the store)
        now = self._clock()
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
        if not await self._write(self._tables.end_race(race.race_id, state, now, pairs)):
            for racer in race.racers.values():
                self._restore(racer)
            return False
        race.state, race.ended_at = state, now
        for racer in race.racers.values():
            racer.saved = pairs.pop(0)[0]
            if self._of_player.get(racer.user_id) == race.race_id:
                del self._of_player[racer.user_id]
        self._forget_old()
        return True

    def _forget_old(self) -> None:
        over = [r for r in self._races.values() if not r.open]
        for race in over[: max(0, len(over) - KEEP_OVER)]:
            del self._races[race.race_id]

    async def due(self) -> list[int]:
        """Start the lobbies whose time has come and end the races whose time is up (by
        the service's clock); the ids of the races changed. Called every second or so by
        the front end."""
        await self._load()
        now = self._clock()
        changed = []
        for race in [r for r in self._races.values() if self._runs(r)]:
            if race.state == "lobby" and now >= race.row.starts_at:
                try:
                    await self.start(race.race_id, None)
                except RaceError:
                    continue  # started or cancelled meanwhile
                changed.append(race.race_id)
            elif race.state == "running" and (ends := race.ends_at) and now >= ends:
                await self._time_up(race)
                changed.append(race.race_id)
            elif race.state == "running":
                self._computer_turn(race, now)
        return changed

    def _computer_turn(self, race: Race, now: datetime) -> None:
        """The computer's next move in ``race``, if it races and its time has come."""
        pace, computers = race.row.computer_pace_s, self.computers
        racer = race.racers.get(computer_id(race.race_id))
        if pace is None or computers is None or racer is None or racer.entry is None:
            return
        if racer.status == "racing":
            computers.tick(race.race_id, racer.user_id, racer.entry.game, pace, now)
        else:
            computers.forget(race.race_id)

    async def _move(self, race_id: int, user_id: int, action: str, text: str) -> object:
        return await self.play(race_id, user_id, action, text)

    async def _time_up(self, race: Race) -> None:
        async with self._members:
            if race.state != "running":
                return
            for racer in race.racing():  # wait for a move under way to be written
                async with self.locks(racer.user_id):
                    pass
            await self._end(race, "over")
        self._changed(race)

    # ------------------------------------------------------------------ playing

    async def race_of(self, user_id: int) -> int | None:
        """The race ``user_id`` is racing in (started, and they still play), or None. A
        race being read again after another process changed it (``heard``: a start made
        through another shard a moment ago) is waited for, ``REREAD_WAIT`` at most."""
        await self._load()
        if self._rereading:
            await asyncio.wait(list(self._rereading.values()), timeout=REREAD_WAIT)
        race_id = self._of_player.get(user_id)
        race = None if race_id is None else self._races.get(race_id)
        if race is None or race.state != "running":
            return None
        racer = race.racers.get(user_id)
        return race_id if racer is not None and racer.status == "racing" else None

    async def board(self, race_id: int, user_id: int) -> RaceBoard:
        """A racer's board in ``race_id`` (also after they finished or the race ended)."""
        await self._load()
        race = await self._race(race_id)
        racer = race.racers.get(user_id)
        if racer is None:
            raise RaceError(f"You are not a racer of race {race_id}.")
        if racer.entry is None or race.started_at is None:  # (its start still being written)
            raise RaceError(f"Race {race_id} hasn't started yet: your board comes at the start.")
        async with self.locks(user_id):
            return self._board(race, racer, None)

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
        await self._load()
        race = await self._race(race_id)
        racer = race.racers.get(user_id)
        if racer is None or racer.entry is None:
            raise RaceError(NOT_RACING)
        async with self.locks(user_id):
            try:
                message = await self._turn(race, racer, action, text, expected_version)
            except _Stale:  # moved through another process: as stored now, once more
                await self._write(self._reread_racer(race, racer))
                message = await self._turn(race, racer, action, text, expected_version)
            board = self._board(race, racer, message)
        if racer.status != "racing":
            await self._settle(race)
        self._changed(race)
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
            raise RaceError(f"Your race is over for you: {_how(racer.status)}.")
        if ends is not None and self._clock() >= ends:
            raise RaceError("Time is up: the race is over.")
        return await self._act(race, racer, entry, action, text)

    async def _act(self, race: Race, racer: Racer, entry: Entry, action: str, text: str) -> str:
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
            await self._save(race, racer, "racing")
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
        await self._save(race, racer, "won" if won else "racing")
        return played(labels) + (" · You finished the deal!" if won else "")

    async def _save(self, race: Race, racer: Racer, status: RacerStatus) -> None:
        """Write the racer's game as it now stands (player lock held); on a failure the
        game goes back to what was stored, and the refusal says the database failed."""
        entry = racer.entry
        assert entry is not None and race.started_at is not None
        before = racer.saved
        expected = entry.version if before is None else before.version
        racer.status = status
        racer.elapsed_s = max(0.0, (self._clock() - race.started_at).total_seconds())
        entry.version = expected + 1
        entry.status = stored_status(entry.state)
        row = racer.row(race.race_id)
        try:
            saved = await self._tables.save_racer(row, expected)
        except StoreError as exc:
            self._restore(racer)
            raise _storage_failure(exc) from exc
        if not saved:  # moved on meanwhile (another process), or the race is over
            self._restore(racer)
            raise _Stale
        racer.saved = row

    def _restore(self, racer: Racer) -> None:
        """The racer's game as last stored (a write failed)."""
        row = racer.saved
        if row is None or racer.entry is None:
            return
        entry = racer.entry
        racer.entry = entry_of_row(row, entry.deal_number, entry.started_at, entry.guild_id)
        racer.status, racer.elapsed_s, racer.place = row.status, row.elapsed_s, row.place

    async def _settle(self, race: Race) -> None:
        """After a racer finished: end the race if no one is racing any more (by the
        process that runs it)."""
        async with self._members:
            if race.state == "running" and not race.racing() and self._runs(race):
                await self._end(race, "over")
            for racer in race.racers.values():
                if racer.status != "racing" and self._of_player.get(racer.user_id) == race.race_id:
                    del self._of_player[racer.user_id]

    async def move_choices(self, race_id: int, user_id: int, typed: str, limit: int) -> list[str]:
        """The racer's legal moves (their notation) containing ``typed``."""
        race = await self._race(race_id)
        racer = race.racers.get(user_id)
        if racer is None or racer.entry is None or racer.status != "racing":
            return []
        wanted = typed.strip().casefold()
        moves = [str(m) for m in racer.entry.game.legal_moves()]
        return [m for m in moves if wanted in m.casefold()][:limit]

    # ------------------------------------------------------------------ reading

    async def standings(self, race_id: int) -> RaceView:
        await self._load()
        return self._view(await self._race(race_id), None)

    async def open_races(self) -> list[RaceView]:
        """Every race in its lobby or running (a front end redraws them after a restart)."""
        await self._load()
        return [self._view(r, None) for r in self._races.values() if r.open and self._runs(r)]

    async def record(self, user_id: int) -> RaceStats:
        try:
            found = await self._tables.record(user_id)
        except StoreError as exc:
            raise _storage_failure(exc) from exc
        return RaceStats(found.played, found.won, found.best_place)

    def _view(self, race: Race, message: str | None) -> RaceView:
        lines = [r.line() for r in race.racers.values()]
        if race.state != "lobby":
            lines = [replace(line, place=place) for place, line in ranked(lines)]
        return RaceView(
            race_id=race.race_id,
            guild_id=race.row.guild_id,
            channel_id=race.row.channel_id,
            host_id=race.row.host_id,
            deal_number=race.row.deal_number,
            state=race.state,
            limit_s=race.row.limit_s,
            capacity=race.row.capacity,
            starts_at=race.row.starts_at,
            started_at=race.started_at,
            ends_at=race.ends_at,
            ended_at=race.ended_at,
            message_id=race.message_id,
            card_total=variant_by_code(race.row.variant).card_total,
            racers=tuple(lines),
            message=message,
        )

    def _board(self, race: Race, racer: Racer, message: str | None) -> RaceBoard:
        entry = racer.entry
        ends = race.ends_at
        assert entry is not None and ends is not None
        view = game_view(racer.user_id, entry, RACE_SETTINGS, self._clock(), None, message)
        if racer.status != "racing":
            view = replace(view, moves=(), can_deal=False, can_undo=False, can_auto=False)
        return RaceBoard(race.race_id, view, racer.status, ends)

    async def _race(self, race_id: int) -> Race:
        await self._load()
        race = self._races.get(race_id)
        if race is None:
            found = await self._write(self._tables.load_race(race_id))
            if found is None:
                raise RaceError(f"There is no race {race_id}.")
            race = race_of_rows(*found)
            self._races[race_id] = race
        return race

    # ------------------------------------------------------------------ the store

    async def _write(self, call: Awaitable[T]) -> T:
        """Await a call of the store; its failure is the players' ``StorageError``."""
        try:
            return await call
        except StoreError as exc:
            raise _storage_failure(exc) from exc

    async def _load(self) -> None:
        """Read the open races back from the store, once (after a restart)."""
        if self._loaded:
            return
        async with self._members:
            if self._loaded:
                return
            try:
                found = await self._tables.open_races()
            except StoreError as exc:
                raise _storage_failure(exc) from exc
            for row, racers in found:  # another shard's too, if followed (``only``)
                if not (self.follows_others or self._owns(row.guild_id)):
                    continue
                race = race_of_rows(row, racers)
                self._races[race.race_id] = race
                self._index(race)
            self._loaded = True

    def _index(self, race: Race) -> None:
        """Who is in ``race`` (``_of_player``) as it now stands."""
        for racer in race.racers.values():
            if race.open and racer.status in ("joined", "racing"):
                self._of_player[racer.user_id] = race.race_id
            elif self._of_player.get(racer.user_id) == race.race_id:
                del self._of_player[racer.user_id]

    # ------------------------------------------------------------------ other processes

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
        try:
            while True:
                self._again.discard(race_id)
                await self._load()
                async with self._members:
                    race = await self._reread(race_id)
                if race is not None:
                    self._changed(race)
                    if race.state == "running" and not race.racing():
                        await self._settle(race)
                if race_id not in self._again:
                    return
        except (StoreError, StorageError, RaceError) as exc:
            log.warning("race %s could not be read again: %s", race_id, exc)
        finally:
            del self._rereading[race_id]

    async def catch_up(self) -> None:
        """Changes may have been missed (``GameStore.follow_changes``): every open race
        read again, those stored and those in memory."""
        stored = {row.race_id for row, _ in await self._tables.open_races()}
        for race_id in stored | {r.race_id for r in self._races.values() if r.open}:
            self.heard(race_id)

    async def _reread(self, race_id: int) -> Race | None:
        """The race brought up to its stored rows where they are further on (members lock
        held; each racer replaced under their own lock); None if there is no such race."""
        found = await self._tables.load_race(race_id)
        if found is None:
            return None
        row, stored = found
        race = self._races.get(race_id)
        if race is None:
            race = self._races[race_id] = race_of_rows(row, stored)
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
        self._index(race)
        return race

    async def _reread_racer(self, race: Race, racer: Racer) -> None:
        """The racer as stored (their lock held: no members lock), and the race's state."""
        found = await self._tables.load_race(race.race_id)
        if found is None:
            return
        row, stored = found
        adopt(race, row)
        for racer_row in stored:
            if racer_row.user_id == racer.user_id and newer(racer_row, racer):
                fresh = racer_of_row(race.row, racer_row)
                racer.entry, racer.status, racer.saved = fresh.entry, fresh.status, fresh.saved
                racer.elapsed_s, racer.place = fresh.elapsed_s, fresh.place

    async def close(self) -> None:
        """Stop reading races again (the service closes)."""
        for task in list(self._rereading.values()):
            task.cancel()
        for task in list(self._rereading.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await task


class _Stale(Exception):
    """A racer's write found their row at another version (moved through another process)
    or the race no longer running: nothing was written."""


def _parsed(entry: Entry, text: str) -> Move:
    if len(text) > 100:
        raise RaceError("That is too long for a move: type FROM TO, like 'r3 a5'.")
    try:
        move = parse_move(entry.game, text)
        entry.game.kind(move)
    except (InvalidMoveError, AmbiguousMoveError, IllegalMoveError) as exc:
        raise RaceError(sentence(str(exc))) from None
    return move


def _how(status: RacerStatus) -> str:
    return {
        "won": "you finished the deal",
        "left": "you left it",
        "timed_out": "time is up",
    }.get(status, "you are not racing")


def _gone(race: Race) -> str:
    return {
        "running": "started already",
        "over": "ended",
        "cancelled": "been cancelled",
    }.get(race.state, "not opened yet")


def _storage_failure(exc: StoreError) -> StorageError:
    log.error("database failure in a race: %s", exc, exc_info=exc)
    return StorageError(reason=storage_reason(exc))
