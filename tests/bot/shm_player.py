"""A store whose database is made immutable under it, in a process of its own.

Run by ``test_store_immutable.py`` as ``python shm_player.py DB``: opens the store, starts
user 1's game and saves a move, so the WAL index (``DB-shm``) is mapped, then prints
``ready`` and waits for a line on stdin (the test makes the database's files immutable
meanwhile). It then tries a write, a read and a backup, prints what each gave as one
JSON line, and waits for another line (the test makes them mutable again); then a write
and a read again, the close, and a last JSON line. With ``close`` after DB, it closes
the store right after the first JSON line instead, the files still immutable, and prints
``closed``. Should SQLite write the index while it can't be written, this process dies
of SIGBUS (exit -7) and the test sees it. The store's log goes to stderr.
"""

from __future__ import annotations

import asyncio
import faulthandler
import json
import logging
import sys
from collections.abc import Awaitable
from datetime import UTC, datetime
from typing import Any

from bot.store import GameStart, GameUpdate, Store, StoreError

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def update(expected: int, moves: str) -> GameUpdate:
    return GameUpdate(1, expected, expected + 1, moves, "playing", 0, T0)


async def outcome(call: Awaitable[Any]) -> str:
    """What a store call gave: its result, or the store error's kind and message."""
    try:
        result = await call
    except StoreError as exc:
        return f"{type(exc).__name__}: {exc}"
    if result is not None and hasattr(result, "version"):
        return f"game v{result.version} {result.moves!r}"
    return repr(result)


async def main(path: str, close_at_once: bool) -> None:
    store = await Store.open(path)
    started = await store.start_game(GameStart(
        user_id=1, guild_id=None, variant="vr", deal_number=42, moves="", status="playing",
        started_at=T0, replaces_version=None,
    ))  # fmt: skip
    assert started == 1 and await store.save_game(update(1, "deal"))
    print("ready", flush=True)
    sys.stdin.readline()  # the files are immutable now
    refused = [await outcome(store.save_game(update(2, "deal;deal"))),
               await outcome(store.load_game(1)),
               await outcome(store.backup(f"{path}.copy"))]  # fmt: skip
    print(json.dumps(refused), flush=True)
    if close_at_once:
        await store.close()
        print("closed", flush=True)
        return
    sys.stdin.readline()  # and mutable again
    passed = [await outcome(store.save_game(update(2, "deal;R6 ACE"))),
              await outcome(store.load_game(1))]  # fmt: skip
    await store.close()
    print(json.dumps(passed), flush=True)


if __name__ == "__main__":
    faulthandler.enable()  # a SIGBUS prints where it struck
    faulthandler.dump_traceback_later(60, exit=True)  # never hang the test
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(message)s")
    asyncio.run(main(sys.argv[1], sys.argv[2:] == ["close"]))
