"""Which backend a database is: ``open_store`` takes a SQLite path or a PostgreSQL URL.

``REEL_DATABASE_URL`` (``postgresql://`` or ``postgres://``) names a PostgreSQL database;
without it, the SQLite file (``REEL_DB``). Both give a ``GameStore`` with the same
behaviour (docs/storage.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from .api import GameStore

POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    """Whether ``target`` is a PostgreSQL URL (else a SQLite file's path)."""
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


def make_store(target: str | Path) -> GameStore:
    """The store of ``target``, not yet connected."""
    if is_postgres(target):
        from .postgres import PostgresStore

        return PostgresStore(str(target))
    from .sqlite import SQLiteStore

    return SQLiteStore(target)


async def open_store(target: str | Path) -> GameStore:
    """The store of ``target``, connected (created or migrated as needed)."""
    store = make_store(target)
    await store.connect()
    return store


def describe(target: str | Path) -> str:
    """``target`` for a message: a URL without its password, or the path."""
    if is_postgres(target):
        from .postgres import safe_url

        return safe_url(str(target))
    return str(target)
