"""Races in PostgreSQL (migration 10, ``docs/races.md``): ``RaceStore`` over a pool.

The statements of ``bot/store/sqlite/races.py`` in PostgreSQL's dialect; the rows are
read by the converters both backends share (``bot/store/rows.py``). A racer's game's key
is the column ``racer_key`` (SQLite's rowid of ``racers``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, Final, Literal, TypeAlias, TypeVar

import asyncpg

from ..api import RaceStore
from ..records import RaceRecord, RaceRow, RacerRow, RaceState, computer_id
from ..rows import (
    RACE_COLUMNS,
    RACER_COLUMNS,
    race_from_row,
    racer_from_row,
    racer_params,
    timestamp,
)
from .queries import Named

_T = TypeVar("_T")
Conn: TypeAlias = asyncpg.Connection  # Any to mypy: asyncpg ships no types
Snapshot = Literal["snapshot"]
SNAPSHOT: Final[Snapshot] = "snapshot"
"""``run``'s flag for a read of several statements that must all see one snapshot."""
Run = Callable[[Callable[[Conn], Awaitable[Any]], bool | Snapshot], Awaitable[Any]]

INSERT_RACE_SQL: Final = (
    "INSERT INTO races (guild_id, channel_id, host_id, variant, deal_number, limit_s, "
    "capacity, state, created_at, starts_at, computer_pace_s) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, 'lobby', $8, $9, $10) RETURNING race_id"
)
INSERT_RACER_SQL: Final = (
    "INSERT INTO racers (race_id, user_id, joined_at, status) VALUES ($1, $2, $3, 'joined')"
)
DELETE_RACER_SQL: Final = (
    "DELETE FROM racers WHERE race_id = $1 AND user_id = $2 AND status = 'joined'"
)
SET_MESSAGE_SQL: Final = "UPDATE races SET message_id = $1 WHERE race_id = $2"
START_RACE_SQL: Final = (
    "UPDATE races SET state = 'running', started_at = $1 WHERE race_id = $2 AND state = 'lobby'"
)
END_RACE_SQL: Final = (
    "UPDATE races SET state = $1, ended_at = $2 "
    "WHERE race_id = $3 AND state IN ('lobby', 'running')"
)
_SAVE_RACER: Final = (
    "UPDATE racers SET status = :status, moves = :moves, version = :version, "
    "undo_count = :undo_count, score = :score, move_count = :move_count, "
    "elapsed_s = :elapsed_s, place = :place "
    "WHERE race_id = :race_id AND user_id = :user_id AND version = :expected_version"
)
SAVE_RACER: Final = Named(_SAVE_RACER)
# a racer's move: only while the race runs (another process may have ended it)
PLAY_RACER: Final = Named(
    _SAVE_RACER + " AND EXISTS (SELECT 1 FROM races WHERE races.race_id = racers.race_id "
    "AND races.state = 'running')"
)
OPEN_RACES_SQL: Final = (
    f"SELECT {RACE_COLUMNS} FROM races WHERE state IN ('lobby', 'running') ORDER BY race_id"
)
RACE_SQL: Final = f"SELECT {RACE_COLUMNS} FROM races WHERE race_id = $1"
RACERS_SQL: Final = f"SELECT {RACER_COLUMNS} FROM racers WHERE race_id = $1 ORDER BY joined_at"
RACER_KEY_SQL: Final = "SELECT racer_key FROM racers WHERE race_id = $1 AND user_id = $2"
RACER_BY_KEY_SQL: Final = f"SELECT {RACER_COLUMNS} FROM racers WHERE racer_key = $1"
RECORD_SQL: Final = (
    "SELECT count(*), coalesce(sum(CASE WHEN r.place = 1 THEN 1 ELSE 0 END), 0), "
    "min(r.place) FROM racers AS r JOIN races AS g ON g.race_id = r.race_id "
    "WHERE r.user_id = $1 AND g.state = 'over' AND r.place IS NOT NULL"
)


def _racer_args(racer: RacerRow, expected_version: int) -> tuple[object, ...]:
    return SAVE_RACER.args(racer_params(racer, expected_version))


def changed(status: str) -> int:
    """The rows a command's status ("UPDATE 1", "INSERT 0 1") says it changed."""
    return int(status.rsplit(" ", 1)[-1])


class _Moved(Exception):
    """A racer's row is not at the version expected: the transaction is rolled back."""


class PgRaceTables(RaceStore):
    """The races' rows, over ``run`` (the store's ``_op``; its flag: in a transaction).
    ``changed(race_id)`` is told of each race written (the other processes hear of it)."""

    def __init__(
        self,
        run: Run,
        changed: Callable[[int], None] = lambda race_id: None,
        told: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        """``changed(race_id)``: a racer's game moved (told the other processes soon);
        ``told(race_id)``: the race's membership or state changed (told them before the
        call returns)."""
        self._run = run
        self._changed = changed
        self._told = told

    async def _tell(self, race_id: int) -> None:
        if self._told is None:
            self._changed(race_id)
        else:
            await self._told(race_id)

    async def open_race(self, race: RaceRow) -> int:
        params = (
            race.guild_id,
            race.channel_id,
            race.host_id,
            race.variant,
            race.deal_number,
            race.limit_s,
            race.capacity,
            timestamp(race.created_at),
            timestamp(race.starts_at),
            race.computer_pace_s,
        )

        async def body(conn: Conn) -> int:
            race_id = await conn.fetchval(INSERT_RACE_SQL, *params)
            await conn.execute(INSERT_RACER_SQL, race_id, race.host_id, params[7])
            if race.computer_pace_s is not None:  # the computer races too
                await conn.execute(INSERT_RACER_SQL, race_id, computer_id(race_id), params[7])
            return int(race_id)

        result: int = await self._run(body, True)
        await self._tell(result)
        return result

    async def add_racer(self, race_id: int, user_id: int, joined_at: datetime) -> None:
        async def write(conn: Conn) -> None:
            await conn.execute(INSERT_RACER_SQL, race_id, user_id, timestamp(joined_at))

        await self._run(write, False)
        await self._tell(race_id)

    async def remove_racer(self, race_id: int, user_id: int) -> None:
        async def write(conn: Conn) -> None:
            await conn.execute(DELETE_RACER_SQL, race_id, user_id)

        await self._run(write, False)
        await self._tell(race_id)

    async def set_message(self, race_id: int, message_id: int) -> None:
        async def write(conn: Conn) -> None:
            await conn.execute(SET_MESSAGE_SQL, message_id, race_id)

        await self._run(write, False)
        await self._tell(race_id)

    async def start_race(
        self, race_id: int, started_at: datetime, racers: Sequence[RacerRow]
    ) -> None:
        async def body(conn: Conn) -> None:
            await conn.execute(START_RACE_SQL, timestamp(started_at), race_id)
            if racers:
                await conn.executemany(SAVE_RACER.sql, [_racer_args(r, 0) for r in racers])

        await self._run(body, True)
        await self._tell(race_id)

    async def save_racer(self, racer: RacerRow, expected_version: int) -> bool:
        async def write(conn: Conn) -> bool:
            params = racer_params(racer, expected_version)
            status = await conn.execute(PLAY_RACER.sql, *PLAY_RACER.args(params))
            return changed(status) == 1

        result: bool = await self._run(write, False)
        if result:
            self._changed(racer.race_id)
        return result

    async def end_race(
        self,
        race_id: int,
        state: RaceState,
        ended_at: datetime,
        racers: Sequence[tuple[RacerRow, int]],
    ) -> bool:
        async def body(conn: Conn) -> None:
            await conn.execute(END_RACE_SQL, state, timestamp(ended_at), race_id)
            for racer, version in racers:
                if changed(await conn.execute(SAVE_RACER.sql, *_racer_args(racer, version))) != 1:
                    raise _Moved

        try:
            await self._run(body, True)
        except _Moved:
            return False
        await self._tell(race_id)
        return True

    async def open_races(self) -> list[tuple[RaceRow, list[RacerRow]]]:
        async def read(conn: Conn) -> list[tuple[RaceRow, list[RacerRow]]]:
            races = [race_from_row(tuple(r)) for r in await conn.fetch(OPEN_RACES_SQL)]
            found = []
            for race in races:
                rows = await conn.fetch(RACERS_SQL, race.race_id)
                found.append((race, [racer_from_row(tuple(r)) for r in rows]))
            return found

        result: list[tuple[RaceRow, list[RacerRow]]] = await self._run(read, SNAPSHOT)
        return result

    async def load_race(self, race_id: int) -> tuple[RaceRow, list[RacerRow]] | None:
        async def read(conn: Conn) -> tuple[RaceRow, list[RacerRow]] | None:
            row = await conn.fetchrow(RACE_SQL, race_id)
            if row is None:
                return None
            racers = await conn.fetch(RACERS_SQL, race_id)
            return race_from_row(tuple(row)), [racer_from_row(tuple(r)) for r in racers]

        result: tuple[RaceRow, list[RacerRow]] | None = await self._run(read, SNAPSHOT)
        return result

    async def record(self, user_id: int) -> RaceRecord:
        async def read(conn: Conn) -> RaceRecord:
            played, won, best = await conn.fetchrow(RECORD_SQL, user_id)
            return RaceRecord(int(played), int(won), None if best is None else int(best))

        result: RaceRecord = await self._run(read, False)
        return result

    async def racer_key(self, race_id: int, user_id: int) -> int | None:
        async def read(conn: Conn) -> int | None:
            key = await conn.fetchval(RACER_KEY_SQL, race_id, user_id)
            return None if key is None else int(key)

        result: int | None = await self._run(read, False)
        return result

    async def racer_by_key(self, key: int) -> tuple[RaceRow, RacerRow] | None:
        async def read(conn: Conn) -> tuple[RaceRow, RacerRow] | None:
            row = await conn.fetchrow(RACER_BY_KEY_SQL, key)
            if row is None:
                return None
            racer = racer_from_row(tuple(row))
            race = await conn.fetchrow(RACE_SQL, racer.race_id)
            return None if race is None else (race_from_row(tuple(race)), racer)

        result: tuple[RaceRow, RacerRow] | None = await self._run(read, SNAPSHOT)
        return result
