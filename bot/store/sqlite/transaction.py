"""One write transaction on the store's connection, for the calls that change several rows
(the store's own and the races')."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiosqlite

log = logging.getLogger(__name__)

_T = TypeVar("_T")


async def transaction(
    conn: aiosqlite.Connection, body: Callable[[aiosqlite.Connection], Awaitable[_T]]
) -> _T:
    """Run ``body`` inside BEGIN IMMEDIATE ... COMMIT; roll back if it raises.

    The connection is in autocommit mode (``isolation_level=None``), so the
    transaction is exactly the statements ``body`` runs. The error that made the
    transaction fail is the one raised, even if the ROLLBACK fails too (``roll_back``).
    """
    await conn.execute("BEGIN IMMEDIATE")
    try:
        result = await body(conn)
        await conn.execute("COMMIT")
    except BaseException:
        await roll_back(conn)
        raise
    return result


async def roll_back(conn: aiosqlite.Connection) -> None:
    """Roll back the transaction ``conn`` is in, if any. A ROLLBACK that fails (an I/O
    error, a full disk, a connection closed under it) is logged, not raised over the error
    that caused it; the connection may then still be inside the transaction, and the
    store, which checks after every operation, closes it (a close rolls back) and opens
    the file again for the next call (``SQLiteStore._op``)."""
    if not conn.in_transaction:
        return
    try:
        await conn.execute("ROLLBACK")
    except (sqlite3.Error, ValueError) as exc:  # ValueError: the connection is closed
        log.error("ROLLBACK failed (%s): the connection is closed and opened again", exc)
