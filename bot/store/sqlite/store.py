"""The SQLite store: ``GameStore`` on one SQLite file.

One aiosqlite connection (one worker thread) on a file, in WAL mode with
``synchronous=FULL``: a transaction is on disk (the WAL fsynced) before the
call that wrote it returns, so an acknowledged move survives a SIGKILL of the
process and a power cut alike. ``docs/storage.md`` explains the schema, the
migrations, the durability choice and the concurrency design.

Every operation has the connection to itself from its first statement to
its last (``_op``): a read, a one-statement write (a move: autocommit, its
own transaction), or a whole ``BEGIN IMMEDIATE ... COMMIT`` transaction (a
new game that records the old one, a finished game). So nothing ever runs
inside someone else's transaction, and once begun an operation runs to its
end even if the caller is cancelled.

The schema is created and upgraded by the numbered migrations of
``migrations/`` (``schema``); a file written by a newer program is refused
with ``SchemaTooNewError``.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any, Final, TypeVar

import aiosqlite

from ..api import GameStore
from ..errors import StoreError, StoreReadOnlyError, StoreUnavailableError
from ..records import (
    CurrentGame,
    DailyDeal,
    DailyResult,
    FinishedGame,
    GameStatus,
    GameUpdate,
    PlayerTotals,
    Totals,
    UserSettings,
)
from . import queries as q
from . import schema
from .rows import (
    current_from_row,
    daily_deal_from_row,
    daily_result_from_row,
    finished_from_row,
    finished_params,
    player_totals_from_row,
    settings_from_row,
    timestamp,
    totals_from_row,
    update_params,
)
from .schema import Migration

BUSY_TIMEOUT_MS: Final = 5000
PRAGMAS: Final = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
)
IMPORT_BATCH: Final = 20_000  # rows a statement of ``import_results`` writes at a time

_T = TypeVar("_T")
Conn = aiosqlite.Connection


class _Refused(Exception):
    """Raised inside a transaction to roll it back when a version check fails."""


def _check_opens(path: Path) -> None:
    """Open and close the file with sqlite3, creating it and its folder if needed;
    sqlite3.Error (or OSError, for the folder) if it can't."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sqlite3.connect(path).close()


async def _transaction(conn: Conn, body: Callable[[Conn], Awaitable[_T]]) -> _T:
    """Run ``body`` inside BEGIN IMMEDIATE ... COMMIT; roll back if it raises.

    The connection is in autocommit mode (``isolation_level=None``), so the
    transaction is exactly the statements ``body`` runs.
    """
    await conn.execute("BEGIN IMMEDIATE")
    try:
        result = await body(conn)
        await conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        raise
    return result


async def _record_results(conn: Conn, records: Iterable[Mapping[str, object]]) -> None:
    """Insert finished games (parameter dicts as ``finished_params`` makes) and their totals.

    THE one way a result is written, inside the caller's transaction: the
    per-user and per-(server, user) totals are kept in step with
    ``finished_games`` here. A record without "assisted" is unassisted.
    """
    batch = [r if "assisted" in r else {**r, "assisted": 0} for r in records]
    await conn.executemany(q.INSERT_FINISHED_SQL, batch)
    await conn.executemany(q.PLAYER_TOTALS_SQL, batch)
    await conn.executemany(q.GUILD_TOTALS_SQL, batch)


def _consume(task: asyncio.Future[Any]) -> None:
    """Retrieve a shielded operation's exception when its caller has gone."""
    if not task.cancelled():
        task.exception()


async def _check_writes(conn: Conn, path: Path) -> None:
    """Raise ``StoreReadOnlyError`` if the file can't be written: a write that changes
    nothing (the schema version, set to itself)."""
    version = await schema.user_version(conn)
    try:
        await conn.execute(f"PRAGMA user_version = {version:d}")
    except sqlite3.OperationalError as exc:
        if "readonly" not in str(exc) and "read-only" not in str(exc):
            raise
        raise StoreReadOnlyError(f"{path} can't be written: {exc}") from exc


class SQLiteStore(GameStore):
    """The game database in an SQLite file. ``await SQLiteStore.open(path)`` creates
    or migrates the file; ``migrations`` are the package's own unless a test
    gives others."""

    def __init__(
        self, path: Path | str, migrations: tuple[Migration, ...] = schema.MIGRATIONS
    ) -> None:
        self.path = Path(path)
        self.migrations = migrations
        self._conn: aiosqlite.Connection | None = None
        self._turn = asyncio.Lock()  # one operation at a time on the connection

    @classmethod
    async def open(
        cls, path: Path | str, migrations: tuple[Migration, ...] = schema.MIGRATIONS
    ) -> SQLiteStore:
        store = cls(path, migrations)
        await store.connect()
        return store

    async def connect(self) -> None:
        """Open the file (creating it if needed), set the pragmas and apply pending migrations."""
        if self._conn is not None:
            return
        # A file that cannot be opened fails here, before aiosqlite: its worker
        # thread, after a failed connect, reports to the event loop later, and
        # raises "Event loop is closed" if the program has stopped it meanwhile
        # (omnilib/aiosqlite#259).
        try:
            await asyncio.to_thread(_check_opens, self.path)
            conn = await aiosqlite.connect(self.path, isolation_level=None)
        except (sqlite3.Error, OSError) as exc:
            raise StoreUnavailableError(f"{self.path}: {exc}") from exc
        self._conn = conn
        try:
            await self._op(self._setup)
        except BaseException:
            self._conn = None
            await conn.close()
            raise

    async def _setup(self, conn: Conn) -> None:
        for pragma in PRAGMAS:
            await conn.execute(pragma)
        [(mode,)] = await conn.execute_fetchall("PRAGMA journal_mode")
        if mode != "wal":
            raise StoreError(f"{self.path}: could not switch to WAL journal mode ({mode})")
        await schema.migrate(conn, self.path, self.migrations)
        await _check_writes(conn, self.path)

    async def close(self) -> None:
        """Close the connection; operations already begun or waiting finish first."""
        if self._conn is not None:
            async with self._turn:
                conn, self._conn = self._conn, None
                if conn is not None:
                    await conn.close()

    @property
    def connection(self) -> aiosqlite.Connection:
        """The open connection (for tests and tools that inspect the file)."""
        if self._conn is None:
            raise StoreError("the store is not open")
        return self._conn

    async def _op(self, work: Callable[[Conn], Awaitable[_T]]) -> _T:
        """Run ``work`` with the connection to itself, to its end even if the caller is
        cancelled (it is shielded); a driver error becomes ``StoreUnavailableError``."""
        conn = self.connection

        async def alone() -> _T:
            async with self._turn:
                if self._conn is not conn:
                    raise StoreError("the store was closed")
                try:
                    return await work(conn)
                except sqlite3.Error as exc:
                    raise StoreUnavailableError(f"{self.path}: {exc}") from exc

        task = asyncio.ensure_future(alone())
        task.add_done_callback(_consume)
        return await asyncio.shield(task)

    async def _fetchone(self, sql: str, params: Any = ()) -> Any:
        async def read(conn: Conn) -> Any:
            rows = list(await conn.execute_fetchall(sql, params))
            return rows[0] if rows else None

        return await self._op(read)

    async def _fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        async def read(conn: Conn) -> list[Any]:
            return list(await conn.execute_fetchall(sql, params))

        return await self._op(read)

    async def _write_one(self, sql: str, params: Any) -> bool:
        """One statement in autocommit mode (its own transaction): whether it changed one row."""

        async def write(conn: Conn) -> bool:
            cursor = await conn.execute(sql, params)
            return cursor.rowcount == 1

        return await self._op(write)

    async def schema_version(self) -> int:
        return await self._op(schema.user_version)

    # ------------------------------------------------------------------ current games

    async def load_game(self, user_id: int) -> CurrentGame | None:
        row = await self._fetchone(q.CURRENT_SQL, (user_id,))
        return None if row is None else current_from_row(row)

    async def start_game(
        self,
        *,
        user_id: int,
        guild_id: int | None,
        variant: str,
        deal_number: int,
        moves: str,
        status: GameStatus,
        started_at: datetime,
        replaces_version: int | None,
        finished: FinishedGame | None = None,
        daily_date: date | None = None,
        scored: bool = True,
        hint_line: str | None = None,
    ) -> int | None:
        params: dict[str, object] = {
            "user_id": user_id,
            "guild_id": guild_id,
            "variant": variant,
            "deal_number": deal_number,
            "moves": moves,
            "status": status,
            "started_at": timestamp(started_at),
            "replaces_version": replaces_version,
            "daily_date": None if daily_date is None else daily_date.isoformat(),
            "scored": int(scored),
            "hint_line": hint_line,
        }
        record = None if finished is None else finished_params(finished)
        scored_daily = daily_date is not None and scored

        async def body(conn: Conn) -> int:
            if record is not None:
                await _record_results(conn, [record])
            if scored_daily and (await conn.execute(q.START_DAILY_SQL, params)).rowcount != 1:
                raise _Refused
            rows = list(await conn.execute_fetchall(q.START_SQL, params))
            if not rows:
                raise _Refused
            return int(rows[0][0])

        try:
            return await self._op(lambda conn: _transaction(conn, body))
        except _Refused:
            return None

    async def save_game(self, update: GameUpdate, finished: FinishedGame | None = None) -> bool:
        params = update_params(update)
        if finished is None:
            return await self._write_one(q.UPDATE_SQL, params)
        record = finished_params(finished)

        async def body(conn: Conn) -> None:
            if (await conn.execute(q.UPDATE_SQL, params)).rowcount != 1:
                raise _Refused
            await _record_results(conn, [record])

        try:
            await self._op(lambda conn: _transaction(conn, body))
        except _Refused:
            return False
        return True

    async def mark_assisted(
        self,
        user_id: int,
        version: int,
        hint_line: str | None = None,
        lost: tuple[str, int | None] | None = None,
    ) -> bool:
        lost_line, lost_back = (None, None) if lost is None else lost
        params = {
            "user_id": user_id,
            "version": version,
            "hint_line": hint_line,
            "lost_line": lost_line,
            "lost_back": lost_back,
        }
        return await self._write_one(q.MARK_ASSISTED_SQL, params)

    # ------------------------------------------------------------------ finished games

    async def finished_games(self, user_id: int | None = None) -> list[FinishedGame]:
        if user_id is None:
            rows = await self._fetchall(q.FINISHED_SQL)
        else:
            rows = await self._fetchall(q.FINISHED_BY_USER_SQL, (user_id,))
        return [finished_from_row(row) for row in rows]

    # ------------------------------------------------------------------ daily and leaderboards

    async def has_daily_attempt(self, user_id: int, day: date) -> bool:
        row = await self._fetchone(q.HAS_DAILY_ATTEMPT_SQL, (user_id, day.isoformat()))
        return row is not None

    async def daily_board(
        self, day: date, guild_id: int | None, offset: int, limit: int
    ) -> tuple[int, list[DailyResult]]:
        count_sql, rows_sql = q.daily_board_sql(by_guild=guild_id is not None)
        args: tuple[object, ...] = (day.isoformat(),) + (() if guild_id is None else (guild_id,))
        total, rows = await self._page(count_sql, rows_sql, args, limit, offset)
        return total, [daily_result_from_row(r) for r in rows]

    async def _page(
        self, count_sql: str, rows_sql: str, args: tuple[object, ...], limit: int, offset: int
    ) -> tuple[int, list[Any]]:
        """(total rows, one page) in one trip; ``rows_sql`` ends in LIMIT ? OFFSET ?."""

        async def read(conn: Conn) -> tuple[int, list[Any]]:
            [(total,)] = await conn.execute_fetchall(count_sql, args)
            return int(total), list(await conn.execute_fetchall(rows_sql, (*args, limit, offset)))

        return await self._op(read)

    async def all_time_board(
        self, guild_id: int | None, offset: int, limit: int
    ) -> tuple[int, list[Totals]]:
        count_sql, rows_sql = q.all_time_board_sql(by_guild=guild_id is not None)
        args: tuple[object, ...] = () if guild_id is None else (guild_id,)
        total, rows = await self._page(count_sql, rows_sql, args, limit, offset)
        return total, [totals_from_row(r) for r in rows]

    async def player_totals(self, user_id: int) -> PlayerTotals | None:
        row = await self._fetchone(q.PLAYER_TOTALS_ROW_SQL, (user_id,))
        return None if row is None else player_totals_from_row(row)

    async def deal_record(self, user_id: int, deal_number: int) -> tuple[int, int]:
        row = await self._fetchone(q.DEAL_RECORD_SQL, (user_id, deal_number))
        games, wins = row
        return int(games), int(wins)

    async def load_daily_deal(self, day: date) -> DailyDeal | None:
        row = await self._fetchone(q.DAILY_DEAL_SQL, (day.isoformat(),))
        return None if row is None else daily_deal_from_row(day, row)

    async def save_daily_deal(self, deal: DailyDeal) -> DailyDeal:
        params = (deal.day.isoformat(), deal.deal_number, deal.line, deal.par)

        async def body(conn: Conn) -> Any:
            await conn.execute(q.SAVE_DAILY_DEAL_SQL, params)
            [row] = await conn.execute_fetchall(q.DAILY_DEAL_SQL, params[:1])
            return row

        row = await self._op(lambda conn: _transaction(conn, body))
        return daily_deal_from_row(deal.day, row)

    # ------------------------------------------------------------------ settings

    async def load_settings(self, user_id: int) -> UserSettings | None:
        row = await self._fetchone(q.LOAD_SETTINGS_SQL, (user_id,))
        return None if row is None else settings_from_row(row)

    async def save_settings(self, user_id: int, settings: UserSettings) -> None:
        params = (
            user_id,
            int(settings.symbols),
            int(settings.auto_aces),
            int(settings.winnable),
        )
        await self._write_one(q.SAVE_SETTINGS_SQL, params)

    # ------------------------------------------------------------------ bulk

    async def import_results(self, records: Iterable[Mapping[str, object]]) -> int:
        """Write finished games, with their totals, in one transaction; how many.

        ``records`` are parameter dicts as ``finished_params`` makes (a tool
        may leave ``moves`` empty and give ``move_count`` itself, as
        ``bench/leaderboard.py`` does). The way a database is filled in bulk.
        """
        rows = iter(records)

        async def body(conn: Conn) -> int:
            count = 0
            while batch := list(itertools.islice(rows, IMPORT_BATCH)):
                await _record_results(conn, batch)
                count += len(batch)
            return count

        return await self._op(lambda conn: _transaction(conn, body))
