"""One write transaction on the store's connection, for the calls that change several rows
(the store's own and the races')."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiosqlite

_T = TypeVar("_T")


async def transaction(
    conn: aiosqlite.Connection, body: Callable[[aiosqlite.Connection], Awaitable[_T]]
) -> _T:
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
