"""What the store has seen of the commits of other connections to its file (another
process: ``reel play`` beside ``reel web`` or the bot): ``GameStore.outside_writes``.

SQLite's ``PRAGMA data_version`` on a connection changes between two askings when another
connection has committed meanwhile, and never for the connection's own commits. It reads
the WAL index's header, no table: one call on the store's connection, in its turn like any
operation (``SQLiteStore._op``). The store counts the changes it finds; the service compares
the count with the one it read before what it remembers (``bot/service/outside.py``).

Askers that wait together share one look: a look not yet begun when another is asked for
answers both, since it reads after both asked. One that has begun may have read before the
later asker asked, so that one waits for the next.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

import aiosqlite

Conn: TypeAlias = aiosqlite.Connection
Op: TypeAlias = Callable[[Callable[[Conn], Awaitable[int]]], Awaitable[int]]
DATA_VERSION_SQL = "PRAGMA data_version"


class OutsideWrites:
    """The count of the changes found (``count``), and the looks that find them."""

    def __init__(self, op: Op) -> None:
        """``op(work)``: run ``work`` with the connection to itself (the store's ``_op``)."""
        self._op = op
        self.count = 0
        self._version: int | None = None  # the connection's data_version at the last look
        self._next: asyncio.Future[int] | None = None  # a look asked for, not begun yet

    async def opened(self, conn: Conn) -> None:
        """The file was (opened or) opened again on ``conn``: its data_version is the new
        connection's own, and a file opened again may not hold what was read before, so
        that counts as a change."""
        version = await _data_version(conn)
        if self._version is not None:
            self.count += 1
        self._version = version

    async def look(self) -> int:
        """The count, once the database has been asked (a look begun after this call)."""
        pending = self._next
        if pending is None:
            pending = self._next = asyncio.ensure_future(self._op(self._read))
            pending.add_done_callback(self._settled)
        return await asyncio.shield(pending)

    async def _read(self, conn: Conn) -> int:
        self._next = None  # begun: an asker from now on needs a look of its own
        version = await _data_version(conn)
        if version != self._version:
            self.count += 1
            self._version = version
        return self.count

    def _settled(self, done: asyncio.Future[Any]) -> None:
        if self._next is done:  # refused before it began (busy, the file gone)
            self._next = None
        if not done.cancelled():
            done.exception()  # its askers have it; not "never retrieved" if none is left


async def _data_version(conn: Conn) -> int:
    [(version,)] = await conn.execute_fetchall(DATA_VERSION_SQL)
    return int(version)
