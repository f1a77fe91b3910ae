"""Group commit: the one-statement writes that wait for the connection together (several
players' moves) are written in one transaction, so one fsync makes them all durable.

With ``synchronous=FULL`` every commit waits for the disk, and one commit a move makes
the disk's fsync rate the store's ceiling (docs/scaling.md). Here each write asks for
the connection as any call does (the store's ``_op``: its turn in call order, its
bounded wait, its error mapping). When its turn comes, it takes every write waiting by
then, its own first, and runs them in one ``BEGIN IMMEDIATE ... COMMIT`` (alone, a write
is its own autocommit statement, as before); a write already taken by an earlier group
finds its turn empty. Each caller is answered once its group's commit has returned:
whether its statement changed one row (its compare-and-set), or the error that rolled
the whole group back, in which case none of them applied. A caller whose own turn does
not come in time is refused as busy only if no group has taken its write; otherwise it
waits for that group's outcome, so "nothing applied" is never said of a write that is.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import aiosqlite

from .transaction import transaction

Conn: TypeAlias = aiosqlite.Connection
Op: TypeAlias = Callable[[Callable[[Conn], Awaitable[None]]], Awaitable[None]]


@dataclass(eq=False)
class _Write:
    sql: str
    params: Any
    done: asyncio.Future[bool] = field(default_factory=lambda: _loop().create_future())
    taken: bool = False  # by a group (its own or an earlier one's)


class GroupCommit:
    """One-statement writes, committed together when they wait together (module doc)."""

    def __init__(self, op: Op, error: Callable[[sqlite3.Error], Exception]) -> None:
        """``op(work)``: run ``work`` with the connection to itself (the store's ``_op``);
        ``error``: the store's error for a driver's, told to every write of a failed group."""
        self._op = op
        self._error = error
        self._waiting: list[_Write] = []

    async def write(self, sql: str, params: Any) -> bool:
        """Run ``sql`` with ``params``; whether it changed exactly one row, once committed."""
        mine = _Write(sql, params)
        self._waiting.append(mine)
        try:
            await self._op(lambda conn: self._run(conn, mine))
        except asyncio.CancelledError:
            raise  # the write goes on (shielded) if a group has it, as any call's would
        except Exception:
            if not mine.taken:  # refused before any group took it: nothing applied
                self._waiting.remove(mine)
                raise
        return await asyncio.shield(mine.done)

    async def _run(self, conn: Conn, mine: _Write) -> None:
        """Write ``mine`` and every write waiting with it, unless a group already did."""
        if mine.taken:
            return
        group, self._waiting = self._waiting, []
        for write in group:
            write.taken = True
        try:
            if len(group) == 1:
                changed = [(await conn.execute(mine.sql, mine.params)).rowcount == 1]
            else:
                changed = await transaction(conn, lambda conn: _each(conn, group))
        except sqlite3.Error as exc:
            error = self._error(exc)
            error.__cause__ = exc  # as the store's own calls raise it
            for write in group:
                write.done.set_exception(error)
                write.done.exception()  # told to its caller; not "never retrieved"
            raise
        except BaseException as exc:
            for write in group:
                write.done.set_exception(exc if isinstance(exc, Exception) else RuntimeError(exc))
                write.done.exception()
            raise
        for write, result in zip(group, changed, strict=True):
            write.done.set_result(result)


def _loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


async def _each(conn: Conn, group: list[_Write]) -> list[bool]:
    return [(await conn.execute(w.sql, w.params)).rowcount == 1 for w in group]
