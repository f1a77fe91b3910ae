"""The PostgreSQL schema: its numbered migrations and how a database is brought up to date.

The migrations are the ``.sql`` files of ``migrations/``, numbered as the SQLite backend's
are: schema version *n* means the same tables, columns and constraints in both backends.
The version applied is the one row of ``reel_schema``. Each migration runs in one
transaction with the version it brings the database to, under an advisory lock, so two
processes starting at once migrate once, and a migration that fails applies nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Final

import asyncpg

from ..errors import SchemaTooNewError, StoreError

FILE_NAME: Final = re.compile(r"(\d{4})_(\w+)\.sql")
MIGRATION_LOCK: Final = 0x5265656C  # "Reel": the advisory lock migrations are made under
CREATE_VERSION_SQL: Final = (
    "CREATE TABLE IF NOT EXISTS reel_schema (only_row BOOLEAN PRIMARY KEY DEFAULT TRUE "
    "CHECK (only_row), version INTEGER NOT NULL)"
)
VERSION_SQL: Final = "SELECT version FROM reel_schema"
SET_VERSION_SQL: Final = (
    "INSERT INTO reel_schema (version) VALUES ($1) "
    "ON CONFLICT (only_row) DO UPDATE SET version = excluded.version"
)


@dataclass(frozen=True, slots=True)
class PgMigration:
    """One schema version: its number, its file's name and its SQL (run whole)."""

    number: int
    name: str
    sql: str


def load_migrations() -> tuple[PgMigration, ...]:
    """The migrations shipped with the package, in order; numbered 1, 2, 3..."""
    folder = resources.files(__package__).joinpath("migrations")
    found: list[PgMigration] = []
    for entry in folder.iterdir():
        match = FILE_NAME.fullmatch(entry.name)
        if match:
            found.append(PgMigration(int(match[1]), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.number)
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise StoreError(f"the PostgreSQL migrations are not numbered 1 to {len(found)}: {numbers}")
    return tuple(found)


MIGRATIONS: Final = load_migrations()
SCHEMA_VERSION: Final = len(MIGRATIONS)


async def version(conn: asyncpg.Connection) -> int:
    """The schema version of the database (0: never migrated)."""
    exists = await conn.fetchval("SELECT to_regclass('reel_schema') IS NOT NULL")
    if not exists:
        return 0
    found = await conn.fetchval(VERSION_SQL)
    return 0 if found is None else int(found)


async def migrate(
    conn: asyncpg.Connection, where: str, migrations: tuple[PgMigration, ...] = MIGRATIONS
) -> None:
    """Apply the pending ``migrations`` (``SchemaTooNewError`` if the database is newer)."""
    known = len(migrations)
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(CREATE_VERSION_SQL)
        found = await version(conn)
    if found > known:
        raise SchemaTooNewError(
            f"{where} has schema version {found}, but this program knows versions up to "
            f"{known}: it was written by a newer release. Upgrade the program, or point "
            "REEL_DATABASE_URL at another database."
        )
    for migration in migrations[found:]:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            # Another process may have migrated meanwhile: check under the lock.
            if await version(conn) < migration.number:
                await conn.execute(migration.sql)
                await conn.execute(SET_VERSION_SQL, migration.number)
