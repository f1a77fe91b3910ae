"""Which backend a database is: ``open_store`` takes a SQLite path or a PostgreSQL URL.

``REEL_DATABASE_URL`` (``postgresql://`` or ``postgres://``) names a PostgreSQL database;
without it, the SQLite file (``REEL_DB``). Both give a ``GameStore`` with the same
behaviour (docs/storage.md).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from .api import GameStore
from .errors import StoreError

POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")
URL_SCHEME: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")  # "mysql://", "sqlite:///"


def is_postgres(target: str | Path) -> bool:
    """Whether ``target`` is a PostgreSQL URL (else a SQLite file's path)."""
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


def unknown_url(target: str | Path) -> str | None:
    """Why ``target`` can't be used, if it is a URL of another kind than PostgreSQL's
    (``mysql://x``, ``sqlite:///x``): neither a SQLite file's path nor a database this
    program opens, and never to be taken for a path (``./mysql:/x``); else None."""
    if not isinstance(target, str) or is_postgres(target):
        return None
    scheme = URL_SCHEME.match(target)
    if scheme is None:
        return None
    return (
        f"{target!r} is neither a SQLite file's path nor a postgresql:// URL "
        f"({scheme.group()[:-3]} is not a database this program can use)"
    )


def make_store(target: str | Path) -> GameStore:
    """The store of ``target``, not yet connected; ``StoreError`` if it is a URL of
    another database than PostgreSQL."""
    refused = unknown_url(target)
    if refused is not None:
        raise StoreError(refused)
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
