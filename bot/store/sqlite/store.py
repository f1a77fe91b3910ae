"""The SQLite store: ``GameStore`` on one SQLite file.

One aiosqlite connection (one worker thread) on a file, in WAL mode with
``synchronous=FULL``: a transaction is on disk (the WAL fsynced) before the
call that wrote it returns, so an acknowledged move survives a SIGKILL of the
process and a power cut alike. ``docs/storage.md`` explains the schema, the
migrations, the durability choice and the concurrency design.

Every operation has the connection to itself from its first statement to
its last (``_op``): a read, a one-statement write (a move: autocommit, its
own transaction, or one with the other moves waiting for the connection with it: one
commit, one fsync, ``group``), or a whole ``BEGIN IMMEDIATE ... COMMIT`` transaction (a
new game that records the old one, a finished game). So nothing ever runs
inside someone else's transaction, and once begun an operation runs to its
end even if the caller is cancelled.

The schema is created and upgraded by the numbered migrations of
``migrations/`` (``schema``); a file written by a newer program is refused
with ``SchemaTooNewError``.

Before each operation, and before the file is opened, the store checks that the WAL
index (``PATH-shm``) can still be written (``_shm_refused``): SQLite keeps it mapped
into memory, and once it can't be written (``chattr +i``) the kernel answers SQLite's
next write through the mapping with SIGBUS, which kills the process. So the operation
is refused (``StoreReadOnlyError``) instead, untouched.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from datetime import date
from pathlib import Path
from typing import Any, Final, TypeVar

import aiosqlite

from ..api import GameStore
from ..errors import (
    StoreBusyError,
    StoreError,
    StoreFullError,
    StoreMissingError,
    StoreReadOnlyError,
    StoreUnavailableError,
)
from ..records import (
    CurrentGame,
    DailyDeal,
    DailyResult,
    FinishedGame,
    GameStart,
    GameUpdate,
    PeriodResult,
    PlayerTotals,
    Totals,
    UserSettings,
)
from ..rows import (
    current_from_row,
    daily_deal_from_row,
    daily_deal_params,
    daily_result_from_row,
    finished_from_row,
    finished_params,
    period_result_from_row,
    player_totals_from_row,
    settings_from_row,
    start_params,
    totals_from_row,
    update_params,
)
from . import periods, schema
from . import queries as q
from .group import GroupCommit
from .outside import OutsideWrites
from .races import RaceTables
from .schema import Migration
from .transaction import transaction

BUSY_TIMEOUT_MS: Final = 1000
"""How long SQLite waits for another connection's lock before giving up (SQLITE_BUSY)."""
TURN_WAIT: Final = 1.0
"""Seconds a call waits for its turn on the connection before giving up (``StoreBusyError``).

With the busy timeout, a call finishes or gives up within about two seconds, whatever
the disk or another connection does, so a front end that must answer within Discord's
three (autocomplete) can, and a stall never builds a queue of calls minutes long."""
REOPEN_EVERY: Final = 1.0
"""Seconds between attempts to open the file again after it failed (gone, unreadable)."""
PRAGMAS: Final = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
)
IMPORT_BATCH: Final = 20_000  # rows a statement of ``import_results`` writes at a time

# SQLite's result codes (sqlite3 gives them as ``exc.sqlite_errorcode``)
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_IOERR = 5, 6, 8, 10
SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 11, 13, 14, 26
SQLITE_READONLY_DBMOVED: Final = SQLITE_READONLY | (4 << 8)
_KINDS: Final[dict[int | None, type[StoreUnavailableError]]] = {
    SQLITE_BUSY: StoreBusyError,
    SQLITE_LOCKED: StoreBusyError,
    SQLITE_FULL: StoreFullError,
    SQLITE_READONLY: StoreReadOnlyError,
}
_REOPEN: Final = frozenset({SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_NOTADB})

log = logging.getLogger(__name__)

_T = TypeVar("_T")
Conn = aiosqlite.Connection


class _Refused(Exception):
    """Raised inside a transaction to roll it back when a version check fails."""


def _check_opens(path: Path) -> None:
    """Open and close the file with sqlite3, creating it and its folder if needed, each
    for its owner alone (the games, and the web board's session key beside them, are
    nobody else's: mode 700 and 600; SQLite gives its -wal and -shm the file's mode);
    sqlite3.Error (or OSError, for the folder) if it can't."""
    if not path.parent.is_dir():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    sqlite3.connect(path).close()


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


def _identity(path: Path) -> tuple[int, int] | None:
    """The (device, inode) of the file at ``path``, None if there is none."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return info.st_dev, info.st_ino


def driver_error(path: Path, exc: sqlite3.Error) -> StoreUnavailableError:
    """The store's error for a driver's: busy, full and read-only are told apart."""
    kind = _KINDS.get(_primary_code(exc), StoreUnavailableError)
    return kind(f"{path}: {exc}")


def _primary_code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def _needs_reopen(exc: sqlite3.Error) -> bool:
    """Whether the connection may be unusable after ``exc`` (an I/O error, the file
    moved or no longer a database): the file is then opened again before the next call."""
    code = getattr(exc, "sqlite_errorcode", None)
    return _primary_code(exc) in _REOPEN or code == SQLITE_READONLY_DBMOVED


def backup_file(source: Path, target: Path) -> Path:
    """Copy the database at ``source`` to ``target`` (a file inside it, named as the
    source, when ``target`` is a folder) with SQLite's online backup: one consistent
    snapshot, taken while the bot goes on writing (WAL mode lets it). The copy is written
    beside ``target`` and moved into place whole, so a failed backup never leaves a
    half-written file where the last good one was, nor anything else; the file written.

    ``StoreMissingError`` if there is no database at ``source``; another
    ``StoreUnavailableError``, its message naming the side that failed (the database
    read, or the copy written), if the copy can't be made (the driver's or the system's
    error as its cause)."""
    if not source.is_file():
        raise StoreMissingError(f"no such database {source}: nothing to copy")
    if target.is_dir():
        target = target / source.name
    if not target.parent.is_dir():
        raise StoreUnavailableError(f"can't write the copy {target}: no folder {target.parent}")
    if target.exists() and target.resolve() == source.resolve():
        raise StoreUnavailableError(f"can't write the copy {target}: it is the database itself")
    part = target.with_name(target.name + ".part")
    try:
        _copy_into(source, target, part)
    finally:
        part.unlink(missing_ok=True)
    return target


def _copy_into(source: Path, target: Path, part: Path) -> None:
    """``backup_file``'s copy, through the file ``part``; the error names its side."""
    reading, writing = f"can't read the database {source}", f"can't write the copy {target}"
    try:
        part.unlink(missing_ok=True)
        dst = sqlite3.connect(part)
    except (sqlite3.Error, OSError) as exc:
        raise _failed(writing, exc) from exc
    with contextlib.closing(dst):
        try:
            src = sqlite3.connect(source)
        except sqlite3.Error as exc:
            raise _failed(reading, exc) from exc
        with contextlib.closing(src):
            try:
                src.backup(dst)
            except sqlite3.Error as exc:  # SQLite opens the copy's file lazily, here
                side = writing if _primary_code(exc) in _COPY_FAULTS else reading
                raise _failed(side, exc) from exc
    try:
        os.replace(part, target)
    except OSError as exc:
        raise _failed(writing, exc) from exc


_COPY_FAULTS: Final = frozenset({SQLITE_FULL, SQLITE_READONLY, SQLITE_CANTOPEN})
"""A backup's errors that are the copy's file's (it can't be made or written)."""


def _failed(side: str, exc: sqlite3.Error | OSError) -> StoreUnavailableError:
    """The store's error for a failed backup, ``side`` saying which file failed."""
    code = _primary_code(exc) if isinstance(exc, sqlite3.Error) else None
    return _KINDS.get(code, StoreUnavailableError)(f"{side}: {exc}")


def _shm_refused(path: Path) -> bool:
    """Whether the WAL index beside the file (``PATH-shm``) is there but can't be written:
    made immutable (``chattr +i``), its file system read-only, or (for another user than
    root) its mode, which SQLite's mapping would still write, but which a restart would
    find read-only as well. One ``access(2)``, about 1.4 µs; a missing index is no refusal.

    SQLite maps the index into memory, writable, when a connection first opens the file,
    and writes it through the mapping: a commit, a read's read mark (a read after a write
    sets a new one), the checkpoint when the last connection closes. Once the file can't
    be written (``chattr +i`` flushes and write-protects its pages), the kernel answers
    the next of those writes with SIGBUS, and the process dies with no error to catch. A
    process that opens the file only after the change maps the index read-only and gets
    SQLite's read-only error instead, but every connection of a process that has it
    mapped shares that mapping. ``docs/operations.md`` says what the operator sees."""
    shm = f"{path}-shm"
    return not os.access(shm, os.W_OK) and os.path.lexists(shm)


async def _let_go(conn: Conn) -> None:
    """Close the connection to a file no longer at its path. SQLite leaves the write-ahead
    log of a moved file beside the path on close, where the file put there next would read
    it as its own: so first empty it (a checkpoint into the old file, which is gone anyway)."""
    with contextlib.suppress(sqlite3.Error, ValueError):
        await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with contextlib.suppress(sqlite3.Error, ValueError):
        await conn.close()


def _consume(task: asyncio.Future[Any]) -> None:
    """Retrieve a shielded operation's exception when its caller has gone."""
    if not task.cancelled():
        task.exception()


async def _check_writes(conn: Conn, path: Path) -> None:
    """Raise ``StoreReadOnlyError`` if the file can't be written: a write that changes
    nothing (the schema version, set to itself). A file another connection holds locked
    (a long writer, a stalled disk) is not read-only, and the store opens on it: its
    calls wait their turn as always (SQLite refuses a read-only file without waiting)."""
    version = await schema.user_version(conn)
    try:
        await conn.execute(f"PRAGMA user_version = {version:d}")
    except sqlite3.OperationalError as exc:
        if _primary_code(exc) in (SQLITE_BUSY, SQLITE_LOCKED):
            log.warning("%s is locked by another connection just now; opening it anyway", path)
            return
        if "readonly" not in str(exc) and "read-only" not in str(exc):
            raise
        raise StoreReadOnlyError(f"{path} can't be written: {exc}") from exc


class SQLiteStore(GameStore):
    """The game database in an SQLite file. ``await SQLiteStore.open(path)`` creates
    or migrates the file; ``migrations`` are the package's own unless a test
    gives others.

    Faults (docs/operations.md): a call waits at most ``turn_wait`` for the connection
    and ``BUSY_TIMEOUT_MS`` for another connection's lock, then gives up
    (``StoreBusyError``), having applied nothing. Before each call the store checks that
    the file at its path is still the one it has open: deleted, every call is refused
    (``StoreMissingError``) until a file is back there; replaced (a backup moved into
    place), or after an I/O error, the file is opened again, and ``on_reopen``'s
    listeners are told so that what they remember of it is forgotten.
    """

    def __init__(
        self, path: Path | str, migrations: tuple[Migration, ...] = schema.MIGRATIONS
    ) -> None:
        self.path = Path(path)
        self.migrations = migrations
        self.turn_wait: float | None = TURN_WAIT
        self._conn: aiosqlite.Connection | None = None
        self._open = False  # between connect() and close()
        self._turn = asyncio.Lock()  # one operation at a time on the connection
        self._identity: tuple[int, int] | None = None  # (device, inode) of the file open
        self._lost: StoreUnavailableError | None = None  # why the file can't be used now
        self._shm_stuck = False  # the WAL index couldn't be written at the last check
        self._retry_at = 0.0  # monotonic time of the next attempt to open it again
        self._listeners: list[Callable[[], None]] = []
        self.races = RaceTables(self._op)  # races' rows (migration 10; docs/races.md)
        # moves waiting for the connection together: one commit, one fsync (group.py)
        self._moves = GroupCommit(self._op, lambda exc: driver_error(self.path, exc))
        self._outside = OutsideWrites(self._op)  # other connections' commits (outside.py)

    @classmethod
    async def open(
        cls, path: Path | str, migrations: tuple[Migration, ...] = schema.MIGRATIONS
    ) -> SQLiteStore:
        store = cls(path, migrations)
        await store.connect()
        return store

    async def connect(self) -> None:
        """Open the file (creating it if needed), set the pragmas and apply pending migrations."""
        if self._open:
            return
        async with self._turn:
            await self._attach()
            self._open = True

    async def _attach(self) -> None:
        """Open the file as the connection (the turn is held)."""
        # A file that cannot be opened fails here, before aiosqlite: its worker
        # thread, after a failed connect, reports to the event loop later, and
        # raises "Event loop is closed" if the program has stopped it meanwhile
        # (omnilib/aiosqlite#259).
        self._check_shm()
        try:
            await asyncio.to_thread(_check_opens, self.path)
            conn = await aiosqlite.connect(self.path, isolation_level=None)
        except (sqlite3.Error, OSError) as exc:
            raise StoreUnavailableError(f"{self.path}: {exc}") from exc
        try:
            await self._setup(conn)
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, sqlite3.Error):
                raise driver_error(self.path, exc) from exc
            raise
        self._conn = conn
        self._identity = _identity(self.path)

    async def _setup(self, conn: Conn) -> None:
        for pragma in PRAGMAS:
            await conn.execute(pragma)
        [(mode,)] = await conn.execute_fetchall("PRAGMA journal_mode")
        if mode != "wal":
            raise StoreError(f"{self.path}: could not switch to WAL journal mode ({mode})")
        await schema.migrate(conn, self.path, self.migrations)
        await _check_writes(conn, self.path)
        await self._outside.opened(conn)

    async def close(self) -> None:
        """Close the connection; operations already begun or waiting finish first.

        SQLite's close checkpoints the WAL, writing its index: if that can't be written
        (``_shm_refused``), the process may die of SIGBUS here, and there is no way round
        it in Python 3.11's sqlite3 (3.12's ``setconfig`` can turn the checkpoint off). So
        it is said in the log first; nothing is lost, every call's commit is on disk."""
        if not self._open:
            return
        async with self._turn:
            self._open = False
            conn, self._conn = self._conn, None
            if conn is not None:
                if _shm_refused(self.path):
                    log.error(
                        "closing the database %s while its WAL index can't be written: "
                        "SQLite may die of SIGBUS here (nothing is lost)",
                        self.path,
                    )
                await conn.close()

    async def backup(self, target: Path | str) -> None:
        """Copy the database to ``target`` as it stands now (``backup_file``), without
        stopping anyone: the bot's calls go on meanwhile. Refused as every call is while
        the WAL index can't be written (``_check_shm``): the copy's connection, in this
        process, would share the store's mapping of it."""
        self._check_shm()
        await asyncio.to_thread(backup_file, self.path, Path(target))

    def on_reopen(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` whenever the file is opened again (replaced, or after a fault):
        its rows may not be the ones read before."""
        self._listeners.append(listener)

    @property
    def connection(self) -> aiosqlite.Connection:
        """The open connection (for tests and tools that inspect the file)."""
        if self._conn is None:
            raise StoreError("the store is not open")
        return self._conn

    async def _op(self, work: Callable[[Conn], Awaitable[_T]]) -> _T:
        """Run ``work`` with the connection to itself, to its end even if the caller is
        cancelled (it is shielded); a driver error becomes ``StoreUnavailableError``."""
        if not self._open:
            raise StoreError("the store is not open")

        async def alone() -> _T:
            await self._take_turn()
            try:
                if not self._open:
                    raise StoreError("the store was closed")
                conn = await self._usable()
                try:
                    return await work(conn)
                except sqlite3.Error as exc:
                    error = driver_error(self.path, exc)
                    if _needs_reopen(exc):
                        log.error("%s; it will be opened again", error)
                        self._identity = None  # the next call opens the file again
                    raise error from exc
                finally:
                    if conn.in_transaction:  # a ROLLBACK failed (transaction.roll_back)
                        await self._discard(conn)
            finally:
                self._turn.release()

        task = asyncio.ensure_future(self.timed(alone()))
        task.add_done_callback(_consume)
        return await asyncio.shield(task)

    async def _discard(self, conn: Conn) -> None:
        """Close ``conn``, left inside a transaction by a failed ROLLBACK (the turn is
        held): the close rolls the transaction back, so no later call runs inside it, and
        the next call opens the file again (its listeners told, as after any reopen)."""
        log.error(
            "%s: the connection was left inside a transaction (its ROLLBACK failed): closing "
            "it, which rolls the transaction back; the next call opens the file again",
            self.path,
        )
        self._conn, self._identity = None, None
        with contextlib.suppress(sqlite3.Error, ValueError):
            await conn.close()

    async def _take_turn(self) -> None:
        """Wait for the connection, at most ``turn_wait`` seconds (``StoreBusyError``)."""
        try:
            async with asyncio.timeout(self.turn_wait):
                await self._turn.acquire()
        except TimeoutError:
            raise StoreBusyError(
                f"{self.path}: busy: no turn on the connection within {self.turn_wait} s"
            ) from None

    async def _usable(self) -> Conn:
        """The connection, once the file at the path is checked to be the one open (the
        turn is held): a file gone raises ``StoreMissingError``; another file there (or
        none open after a fault) is opened in its place; a WAL index that can't be written
        raises ``StoreReadOnlyError`` before the connection is touched."""
        self._check_shm()
        here = _identity(self.path)
        if self._conn is not None and here is not None and here == self._identity:
            return self._conn
        if here is None:
            if self._lost is None or not isinstance(self._lost, StoreMissingError):
                log.error(
                    "the database file %s was deleted while the bot was running: nothing "
                    "can be saved until it is back (restore a backup there)",
                    self.path,
                )
            self._lost = StoreMissingError(f"{self.path} is gone (deleted while running)")
            raise self._lost
        now = time.monotonic()
        if self._conn is None and self._lost is not None and now < self._retry_at:
            raise self._lost
        old, self._conn = self._conn, None
        if old is not None:
            await _let_go(old)
        try:
            await self._attach()
        except StoreError as exc:
            self._retry_at = now + REOPEN_EVERY
            lost = exc if isinstance(exc, StoreUnavailableError) else None
            self._lost = lost or StoreUnavailableError(str(exc))
            log.error("could not open the database file %s again: %s", self.path, exc)
            raise self._lost from exc
        log.warning("opened the database file %s again", self.path)
        self._lost = None
        for listener in self._listeners:
            listener()
        return self.connection

    def _check_shm(self) -> None:
        """Refuse the call (``StoreReadOnlyError``) while the WAL index can't be written,
        since SQLite writing it would kill the process (``_shm_refused``). Logged when it
        begins and when it ends. A change between this check and the operation's last
        statement may still kill it: the check narrows that window to one operation."""
        if not _shm_refused(self.path):
            if self._shm_stuck:
                self._shm_stuck = False
                log.warning("the WAL index %s-shm can be written again: calls go on", self.path)
            return
        if not self._shm_stuck:
            self._shm_stuck = True
            log.error(
                "the WAL index %s-shm can't be written (immutable? see lsattr): every call "
                "is refused until it can be (chattr -i on the database and its -wal and "
                "-shm), since SQLite writing it would kill the bot with SIGBUS",
                self.path,
            )
        raise StoreReadOnlyError(f"{self.path}-shm, the WAL index, can't be written")

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

    async def outside_writes(self) -> int:
        """``PRAGMA data_version`` on the store's connection (``outside.py``); looks asked
        for together are one."""
        return await self._outside.look()

    # ------------------------------------------------------------------ current games

    async def load_game(self, user_id: int) -> CurrentGame | None:
        row = await self._fetchone(q.CURRENT_SQL, (user_id,))
        return None if row is None else current_from_row(row)

    async def game_version(self, user_id: int) -> int | None:
        """The stored version of the user's current game (one index lookup)."""
        row = await self._fetchone(q.VERSION_SQL, (user_id,))
        return None if row is None else int(row[0])

    async def game_versions(self, user_ids: Collection[int]) -> dict[int, int]:
        """The stored versions of these players' games, in one statement."""
        rows = await self._fetchall(q.VERSIONS_SQL, (json.dumps(sorted(user_ids)),))
        return {int(user): int(version) for user, version in rows}

    async def game_version_and_settings(
        self, user_id: int
    ) -> tuple[int | None, UserSettings | None]:
        """Both in one statement (a check of the game in memory)."""
        row = await self._fetchone(q.VERSION_AND_SETTINGS_SQL, {"user_id": user_id})
        version = None if row[0] is None else int(row[0])
        return version, None if row[1] is None else settings_from_row(row[1:])

    async def start_game(
        self, start: GameStart, finished: FinishedGame | None = None
    ) -> int | None:
        params = start_params(start)
        record = None if finished is None else finished_params(finished)
        scored_daily = start.daily_date is not None and start.scored

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
            return await self._op(lambda conn: transaction(conn, body))
        except _Refused:
            return None

    async def save_game(self, update: GameUpdate, finished: FinishedGame | None = None) -> bool:
        params = update_params(update)
        if finished is None:
            return await self._moves.write(q.UPDATE_SQL, params)
        record = finished_params(finished)

        async def body(conn: Conn) -> None:
            if (await conn.execute(q.UPDATE_SQL, params)).rowcount != 1:
                raise _Refused
            await _record_results(conn, [record])

        try:
            await self._op(lambda conn: transaction(conn, body))
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

    async def finished_game(self, game_id: int) -> FinishedGame | None:
        row = await self._fetchone(q.FINISHED_BY_ID_SQL, (game_id,))
        return None if row is None else finished_from_row(row)

    async def recent_finished(self, user_id: int, limit: int) -> list[FinishedGame]:
        rows = await self._fetchall(q.RECENT_FINISHED_SQL, (user_id, limit))
        return [finished_from_row(row) for row in rows]

    # ------------------------------------------------------------------ daily and leaderboards

    async def has_daily_attempt(self, user_id: int, day: date, variant: str = "vr") -> bool:
        row = await self._fetchone(q.HAS_DAILY_ATTEMPT_SQL, (user_id, variant, day.isoformat()))
        return row is not None

    async def daily_board(
        self, day: date, guild_id: int | None, offset: int, limit: int, variant: str = "vr"
    ) -> tuple[int, list[DailyResult]]:
        count_sql, rows_sql = q.daily_board_sql(by_guild=guild_id is not None)
        args: tuple[object, ...] = (variant, day.isoformat())
        args += () if guild_id is None else (guild_id,)
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
        self, guild_id: int | None, offset: int, limit: int, variant: str = "vr"
    ) -> tuple[int, list[Totals]]:
        count_sql, rows_sql = q.all_time_board_sql(by_guild=guild_id is not None)
        args: tuple[object, ...] = (variant,) if guild_id is None else (guild_id, variant)
        total, rows = await self._page(count_sql, rows_sql, args, limit, offset)
        return total, [totals_from_row(r) for r in rows]

    async def player_totals(self, user_id: int, variant: str = "vr") -> PlayerTotals | None:
        row = await self._fetchone(q.PLAYER_TOTALS_ROW_SQL, (user_id, variant))
        return None if row is None else player_totals_from_row(row)

    async def deal_record(
        self, user_id: int, deal_number: int, variant: str = "vr"
    ) -> tuple[int, int]:
        row = await self._fetchone(q.DEAL_RECORD_SQL, (user_id, variant, deal_number))
        games, wins = row
        return int(games), int(wins)

    async def load_daily_deal(self, day: date, variant: str = "vr") -> DailyDeal | None:
        row = await self._fetchone(q.DAILY_DEAL_SQL, (day.isoformat(), variant))
        return None if row is None else daily_deal_from_row(day, row, variant)

    async def save_daily_deal(self, deal: DailyDeal) -> DailyDeal:
        params = daily_deal_params(deal)

        async def body(conn: Conn) -> Any:
            await conn.execute(q.SAVE_DAILY_DEAL_SQL, params)
            [row] = await conn.execute_fetchall(q.DAILY_DEAL_SQL, params[:2])
            return row

        row = await self._op(lambda conn: transaction(conn, body))
        return daily_deal_from_row(deal.day, row, deal.variant)

    async def save_daily_rating(self, day: date, variant: str, rating: str) -> DailyDeal | None:
        async def body(conn: Conn) -> Any:
            await conn.execute(q.RATE_DAILY_SQL, (rating, day.isoformat(), variant))
            rows = await conn.execute_fetchall(q.DAILY_DEAL_SQL, (day.isoformat(), variant))
            return next(iter(rows), None)

        row = await self._op(lambda conn: transaction(conn, body))
        return None if row is None else daily_deal_from_row(day, row, variant)

    async def daily_finished(
        self, user_id: int, day: date, variant: str = "vr"
    ) -> FinishedGame | None:
        row = await self._fetchone(q.DAILY_FINISHED_SQL, (user_id, variant, day.isoformat()))
        return None if row is None else finished_from_row(row)

    async def best_daily_run(self, day: date, variant: str = "vr") -> FinishedGame | None:
        row = await self._fetchone(q.BEST_DAILY_RUN_SQL, (variant, day.isoformat()))
        return None if row is None else finished_from_row(row)

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
            int(settings.watchable),
            int(settings.reminders),
            int(settings.picture),
            int(settings.fair_hints),
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

        return await self._op(lambda conn: transaction(conn, body))

    # ------------------------------------------------------------------ periods, reminders

    async def period_board(
        self,
        first: date,
        last: date,
        guild_id: int | None,
        offset: int,
        limit: int,
        variant: str = "vr",
    ) -> tuple[int, list[PeriodResult]]:
        count_sql, rows_sql = periods.period_board_sql(by_guild=guild_id is not None)
        args: tuple[object, ...] = (variant, first.isoformat(), last.isoformat())
        args += () if guild_id is None else (guild_id,)
        total, rows = await self._page(count_sql, rows_sql, args, limit, offset)
        return total, [period_result_from_row(r) for r in rows]

    async def reminder_candidates(self, today: date) -> list[tuple[int, int]]:
        yesterday = date.fromordinal(today.toordinal() - 1)
        args = (yesterday.isoformat(), today.isoformat())
        rows = await self._fetchall(periods.REMINDER_CANDIDATES_SQL, args)
        return [(int(r[0]), int(r[1])) for r in rows]
