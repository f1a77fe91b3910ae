"""A front end's service over the database it is told: the store opened, wrapped in a
``GameService``, its errors turned into one the front end can word.

The front ends (the terminal game, the Discord bot, the web board) never import the store
(docs/architecture.md): the entry point names the database (an SQLite file's path or a
``postgresql://`` URL, from the settings or ``--db``), and the front end gets a service,
or a ``DatabaseUnavailableError`` saying why it can't be had. So the store's errors stay
below the service, and the wiring in one place.
"""

from __future__ import annotations

from pathlib import Path

from ..store import StoreError, StoreReadOnlyError
from ..store.open import describe, open_store
from .games import GameService


class DatabaseUnavailableError(Exception):
    """The database can't be opened (``read_only``: it can be read but not written, so
    nothing could be saved); ``str`` is the store's reason, ``where`` the database."""

    def __init__(self, where: str, reason: str, *, read_only: bool = False) -> None:
        super().__init__(reason)
        self.where = where
        self.read_only = read_only


def describe_database(target: str | Path) -> str:
    """``target`` for a message or a log line: a URL without its password, or the path."""
    return describe(target)


async def open_service(
    target: str | Path,
    *,
    shared: bool = False,
    warm_next_daily: bool = False,
    hint_deadline: float | None = None,
) -> GameService:
    """A ``GameService`` over the database at ``target`` (created or migrated as needed).

    ``shared``: other processes write it too (a bot running some of its shards: even an
    SQLite file), so a game in memory is used only at its stored version; a PostgreSQL
    database is always shared. ``warm_next_daily`` (the bot) and ``hint_deadline`` (the
    setting ``REEL_HINT_DEADLINE``): as ``GameService`` takes them.
    ``DatabaseUnavailableError`` if the database can't be opened; nothing is left open."""
    try:
        store = await open_store(target)
    except StoreReadOnlyError as exc:
        raise DatabaseUnavailableError(describe(target), str(exc), read_only=True) from exc
    except (StoreError, OSError) as exc:
        raise DatabaseUnavailableError(describe(target), str(exc)) from exc
    if shared:
        store.shared = True
    return GameService(store, warm_next_daily=warm_next_daily, hint_deadline=hint_deadline)
