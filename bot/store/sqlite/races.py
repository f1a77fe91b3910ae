"""Races in SQLite (migration 10, ``docs/races.md``): the races and their racers' games.

``RaceTables`` is reached as ``SQLiteStore.races``; each call runs as one of the
store's operations (``run``: the connection to itself, to its end even if the caller
is cancelled), so a race's writes are serialized with every other write of the store,
and a call that changes several rows does it in one transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, Final

import aiosqlite

from ..api import RaceStore
from ..records import RaceRecord, RaceRow, RacerRow, RaceState, computer_id
from ..rows import (
    RACE_COLUMNS,
    RACER_COLUMNS,
    race_from_row,
    racer_from_row,
    racer_params,
    row_int,
    timestamp,
)
from .transaction import transaction

Conn = aiosqlite.Connection
Run = Callable[[Callable[[Conn], Awaitable[Any]]], Awaitable[Any]]


INSERT_RACE_SQL: Final = (
    "INSERT INTO races (guild_id, channel_id, host_id, variant, deal_number, limit_s, "
    "capacity, state, created_at, starts_at, computer_pace_s) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING race_id"
)
INSERT_RACER_SQL: Final = (
    "INSERT INTO racers (race_id, user_id, joined_at, status) VALUES (?, ?, ?, 'joined')"
)
DELETE_RACER_SQL: Final = (
    "DELETE FROM racers WHERE race_id = ? AND user_id = ? AND status = 'joined'"
)
SET_MESSAGE_SQL: Final = "UPDATE races SET message_id = ? WHERE race_id = ?"
START_RACE_SQL: Final = (
    "UPDATE races SET state = 'running', started_at = ? WHERE race_id = ? AND state = 'lobby'"
)
END_RACE_SQL: Final = (
    "UPDATE races SET state = ?, ended_at = ? WHERE race_id = ? AND state IN ('lobby', 'running')"
)
SAVE_RACER_SQL: Final = (
    "UPDATE racers SET status = :status, moves = :moves, version = :version, "
    "undo_count = :undo_count, score = :score, move_count = :move_count, "
    "elapsed_s = :elapsed_s, place = :place "
    "WHERE race_id = :race_id AND user_id = :user_id AND version = :expected_version"
)
# a racer's move: only while the race runs (another process may have ended it)
PLAY_RACER_SQL: Final = (
    SAVE_RACER_SQL + " AND EXISTS (SELECT 1 FROM races WHERE races.race_id = racers.race_id "
    "AND races.state = 'running')"
)
OPEN_RACES_SQL: Final = (
    f"SELECT {RACE_COLUMNS} FROM races WHERE state IN ('lobby', 'running') ORDER BY race_id"
)
RACE_SQL: Final = f"SELECT {RACE_COLUMNS} FROM races WHERE race_id = ?"
RACERS_SQL: Final = f"SELECT {RACER_COLUMNS} FROM racers WHERE race_id = ? ORDER BY joined_at"
RACER_KEY_SQL: Final = "SELECT rowid FROM racers WHERE race_id = ? AND user_id = ?"
RACER_BY_KEY_SQL: Final = f"SELECT {RACER_COLUMNS} FROM racers WHERE rowid = ?"
RECORD_SQL: Final = (
    "SELECT COUNT(*), COALESCE(SUM(r.place = 1), 0), MIN(r.place) FROM racers AS r "
    "JOIN races AS g ON g.race_id = r.race_id "
    "WHERE r.user_id = ? AND g.state = 'over' AND r.place IS NOT NULL"
)


class _Moved(Exception):
    """A racer's row is not at the version expected: the transaction is rolled back."""


class RaceTables(RaceStore):
    """The races' rows, over ``run`` (the store's ``_op``: one operation at a time)."""

    def __init__(self, run: Run) -> None:
        self._run = run

    async def open_race(self, race: RaceRow) -> int:
        """Store a new race in its lobby with its host as its first racer; its id."""
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
            [(race_id,)] = list(await conn.execute_fetchall(INSERT_RACE_SQL, params))
            await conn.execute(INSERT_RACER_SQL, (race_id, race.host_id, params[7]))
            if race.computer_pace_s is not None:  # the computer races too
                await conn.execute(INSERT_RACER_SQL, (race_id, computer_id(race_id), params[7]))
            return int(race_id)

        result: int = await self._run(lambda conn: transaction(conn, body))
        return result

    async def add_racer(self, race_id: int, user_id: int, joined_at: datetime) -> None:
        async def write(conn: Conn) -> None:
            await conn.execute(INSERT_RACER_SQL, (race_id, user_id, timestamp(joined_at)))

        await self._run(write)

    async def remove_racer(self, race_id: int, user_id: int) -> None:
        """A racer leaves a race still in its lobby (nothing of theirs is kept)."""

        async def write(conn: Conn) -> None:
            await conn.execute(DELETE_RACER_SQL, (race_id, user_id))

        await self._run(write)

    async def set_message(self, race_id: int, message_id: int) -> None:
        async def write(conn: Conn) -> None:
            await conn.execute(SET_MESSAGE_SQL, (message_id, race_id))

        await self._run(write)

    async def start_race(
        self, race_id: int, started_at: datetime, racers: Sequence[RacerRow]
    ) -> None:
        """The race starts: its state and every racer's first game state, at once."""

        async def body(conn: Conn) -> None:
            await conn.execute(START_RACE_SQL, (timestamp(started_at), race_id))
            await conn.executemany(SAVE_RACER_SQL, [racer_params(r, 0) for r in racers])

        await self._run(lambda conn: transaction(conn, body))

    async def save_racer(self, racer: RacerRow, expected_version: int) -> bool:
        """A racer's game moved on; False (nothing written) if it is not at ``expected_version``."""

        async def write(conn: Conn) -> bool:
            cursor = await conn.execute(PLAY_RACER_SQL, racer_params(racer, expected_version))
            return cursor.rowcount == 1

        result: bool = await self._run(write)
        return result

    async def end_race(
        self,
        race_id: int,
        state: RaceState,
        ended_at: datetime,
        racers: Sequence[tuple[RacerRow, int]],
    ) -> bool:
        """The race is over (or cancelled): its state, and each racer's last state and
        place (with the version each is expected at), in one transaction; False, nothing
        written, if a racer is not at the version expected."""

        async def body(conn: Conn) -> None:
            await conn.execute(END_RACE_SQL, (state, timestamp(ended_at), race_id))
            for racer, version in racers:
                cursor = await conn.execute(SAVE_RACER_SQL, racer_params(racer, version))
                if cursor.rowcount != 1:
                    raise _Moved

        try:
            await self._run(lambda conn: transaction(conn, body))
        except _Moved:
            return False
        return True

    async def open_races(self) -> list[tuple[RaceRow, list[RacerRow]]]:
        """Every race in its lobby or running, with its racers (for a restart)."""

        async def read(conn: Conn) -> list[tuple[RaceRow, list[RacerRow]]]:
            races = [race_from_row(r) for r in await conn.execute_fetchall(OPEN_RACES_SQL)]
            found = []
            for race in races:
                rows = await conn.execute_fetchall(RACERS_SQL, (race.race_id,))
                found.append((race, [racer_from_row(r) for r in rows]))
            return found

        result: list[tuple[RaceRow, list[RacerRow]]] = await self._run(read)
        return result

    async def load_race(self, race_id: int) -> tuple[RaceRow, list[RacerRow]] | None:
        async def read(conn: Conn) -> tuple[RaceRow, list[RacerRow]] | None:
            rows = list(await conn.execute_fetchall(RACE_SQL, (race_id,)))
            if not rows:
                return None
            racers = await conn.execute_fetchall(RACERS_SQL, (race_id,))
            return race_from_row(rows[0]), [racer_from_row(r) for r in racers]

        result: tuple[RaceRow, list[RacerRow]] | None = await self._run(read)
        return result

    async def record(self, user_id: int) -> RaceRecord:
        """The user's races over (``RaceRecord``)."""

        async def read(conn: Conn) -> RaceRecord:
            [(played, won, best)] = list(await conn.execute_fetchall(RECORD_SQL, (user_id,)))
            return RaceRecord(int(played), int(won), None if best is None else int(best))

        result: RaceRecord = await self._run(read)
        return result

    async def racer_key(self, race_id: int, user_id: int) -> int | None:
        row = await self._run(lambda conn: _first(conn, RACER_KEY_SQL, (race_id, user_id)))
        return None if row is None else row_int(row[0], "racers.rowid")

    async def racer_by_key(self, key: int) -> tuple[RaceRow, RacerRow] | None:
        async def read(conn: Conn) -> tuple[RaceRow, RacerRow] | None:
            row = await _first(conn, RACER_BY_KEY_SQL, (key,))
            if row is None:
                return None
            racer = racer_from_row(row)
            race = await _first(conn, RACE_SQL, (racer.race_id,))
            return None if race is None else (race_from_row(race), racer)

        result: tuple[RaceRow, RacerRow] | None = await self._run(read)
        return result


async def _first(conn: Conn, sql: str, params: Sequence[object]) -> Any:
    rows = list(await conn.execute_fetchall(sql, params))
    return rows[0] if rows else None
