"""The SQLite schema: its numbered migrations and how a file is brought up to date.

The migrations are the ``.sql`` files of ``migrations/`` (shipped with the
package), ``0001_initial_schema.sql`` and on: migration *n* takes a file from
version *n - 1* to *n*, and ``PRAGMA user_version`` holds the number applied.
Each runs in one transaction with the version it brings the file to, so a
migration that fails applies nothing.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

import aiosqlite

from ..errors import SchemaTooNewError, StoreError, StoreUnavailableError

FILE_NAME: Final = re.compile(r"(\d{4})_(\w+)\.sql")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema version: its number, its name (the file's) and its SQL statements."""

    number: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The statements of ``sql`` in order (comments between them dropped)."""
        out: list[str] = []
        pending = ""
        for line in self.sql.splitlines(keepends=True):
            pending += line
            if sqlite3.complete_statement(pending):
                out.append(pending.strip())
                pending = ""
        if pending.strip() and any(
            not line.lstrip().startswith("--") for line in pending.splitlines() if line.strip()
        ):
            raise StoreError(f"migration {self.name}: its last statement has no ';'")
        return out


def load_migrations() -> tuple[Migration, ...]:
    """The migrations shipped with the package, in order; they must be numbered 1, 2, 3..."""
    folder = resources.files(__package__).joinpath("migrations")
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = FILE_NAME.fullmatch(entry.name)
        if match:
            found.append(Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.number)
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise StoreError(f"the store's migrations are not numbered 1 to {len(found)}: {numbers}")
    return tuple(found)


MIGRATIONS: Final = load_migrations()
SCHEMA_VERSION: Final = len(MIGRATIONS)


async def user_version(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate(
    conn: aiosqlite.Connection, path: Path, migrations: tuple[Migration, ...]
) -> None:
    """Apply the pending ``migrations``, each in its own transaction with its version.

    ``SchemaTooNewError`` if the file has more migrations than ``migrations``;
    ``StoreUnavailableError`` naming the migration if one fails (the file keeps the
    version before it).
    """
    known = len(migrations)
    found = await user_version(conn)
    if found > known:
        raise SchemaTooNewError(
            f"{path} has schema version {found}, but this program knows versions up to "
            f"{known}: it was written by a newer release. Upgrade the program, or "
            "point REEL_DB at another file."
        )
    for migration in migrations[found:]:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated meanwhile: check under the write lock.
            if await user_version(conn) < migration.number:
                for statement in migration.statements():
                    await conn.execute(statement)
                # PRAGMA takes no parameters; the number is an int parsed from a file name.
                await conn.execute(f"PRAGMA user_version = {int(migration.number)}")
            await conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise StoreUnavailableError(
                    f"{path}: migration {migration.name} failed: {exc}"
                ) from exc
            raise
