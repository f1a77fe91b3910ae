"""``reel db copy SRC DST``: a whole database copied between backends (SQLite <-> PostgreSQL).

How an existing bot moves to PostgreSQL (and back): every table is copied row by row (the
current games, the finished games, the totals, the settings, the daily deals and attempts,
the races and their racers), ids kept, so a replay's number or a race's id means the same
game after the move. Both databases are first brought to this program's schema (the
migrations a bot would apply on start); the target must be empty (a copy never merges
into, or overwrites, a database in use). The source is read in one snapshot, the target
written in one transaction: a copy that fails leaves the target as empty as it was.

Then it is checked: each table's row count, and a SHA-256 over each table's rows in key
order (every game's moves, version, status...), computed on both sides, must be equal.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

import aiosqlite
import asyncpg

from .errors import StoreError
from .open import describe, is_postgres, open_store, unknown_url
from .rows import CURRENT_COLUMNS, RACE_COLUMNS, RACER_COLUMNS


@dataclass(frozen=True, slots=True)
class Table:
    """A table copied: its columns (common to both backends) and the key it is read in."""

    name: str
    columns: str
    order: str
    identity: str | None = None  # a PostgreSQL identity column to move past the ids copied


# In an order that keeps the foreign key (racers -> races) satisfied while writing.
TABLES: Final = (
    Table("current_games", CURRENT_COLUMNS, "user_id"),
    Table(
        "finished_games",
        "id, user_id, guild_id, variant, deal_number, outcome, won, score, moves, undos, "
        "duration_s, started_at, finished_at, daily_date, move_count, assisted",
        "id",
        identity="id",
    ),
    Table(
        "daily_attempts",
        "user_id, daily_date, guild_id, deal_number, started_at, variant",
        "user_id, variant, daily_date",
    ),
    Table(
        "player_totals",
        "user_id, games, wins, best_score, dailies, daily_wins, best_streak, last_daily, "
        "daily_run, variant",
        "user_id, variant",
    ),
    Table(
        "guild_player_totals",
        "guild_id, user_id, games, wins, variant",
        "guild_id, variant, user_id",
    ),
    Table(
        "user_settings",
        "user_id, symbols, auto_aces, winnable, watchable, reminders, picture, fair_hints",
        "user_id",
    ),
    Table("daily_deals", "day, deal_number, line, par, variant, rating", "day, variant"),
    Table("races", RACE_COLUMNS, "race_id", identity="race_id"),
    # racer_key is SQLite's rowid of racers: a racer's game's number (replays)
    Table("racers", RACER_COLUMNS + ", racer_key", "race_id, user_id", identity="racer_key"),
)


class CopyError(StoreError):
    """The copy was refused (target not empty, same database) or did not verify."""


@dataclass(frozen=True, slots=True)
class Copied:
    """What a copy did: rows per table and the checksum both sides agreed on."""

    rows: dict[str, int]
    checksum: str


class Side(Protocol):
    async def read(self, table: Table) -> list[tuple[Any, ...]]: ...
    async def write(self, table: Table, rows: Sequence[tuple[Any, ...]]) -> None: ...
    async def close(self) -> None: ...


def _sqlite_columns(table: Table) -> str:
    return table.columns.replace("racer_key", "rowid")


class SqliteSide:
    """A SQLite file, read in one transaction (one snapshot) or written in one."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    @classmethod
    async def open(cls, path: str) -> SqliteSide:
        conn = await aiosqlite.connect(path, isolation_level=None)
        await conn.execute("BEGIN")  # a snapshot from the first read; writes lock then
        return cls(conn)

    async def read(self, table: Table) -> list[tuple[Any, ...]]:
        sql = f"SELECT {_sqlite_columns(table)} FROM {table.name} ORDER BY {table.order}"
        return [tuple(row) for row in await self.conn.execute_fetchall(sql)]

    async def write(self, table: Table, rows: Sequence[tuple[Any, ...]]) -> None:
        marks = ", ".join("?" for _ in table.columns.split(","))
        sql = f"INSERT INTO {table.name} ({_sqlite_columns(table)}) VALUES ({marks})"
        await self.conn.executemany(sql, rows)

    async def commit(self) -> None:
        await self.conn.execute("COMMIT")

    async def close(self) -> None:
        if self.conn.in_transaction:
            await self.conn.execute("ROLLBACK")
        await self.conn.close()


class PostgresSide:
    """A PostgreSQL database, read in one REPEATABLE READ transaction or written in one."""

    def __init__(self, conn: asyncpg.Connection, transaction: Any) -> None:
        self.conn = conn
        self.transaction = transaction

    @classmethod
    async def open(cls, url: str) -> PostgresSide:
        conn = await asyncpg.connect(url)
        transaction = conn.transaction(isolation="repeatable_read")
        await transaction.start()
        return cls(conn, transaction)

    async def read(self, table: Table) -> list[tuple[Any, ...]]:
        sql = f"SELECT {table.columns} FROM {table.name} ORDER BY {table.order}"
        return [tuple(row) for row in await self.conn.fetch(sql)]

    async def write(self, table: Table, rows: Sequence[tuple[Any, ...]]) -> None:
        columns = [c.strip() for c in table.columns.split(",")]
        if rows:
            await self.conn.copy_records_to_table(table.name, records=rows, columns=columns)
        if table.identity is not None:  # new rows numbered after the copied ones
            await self.conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', '{table.identity}'), "
                f"coalesce(max({table.identity}), 0) + 1, false) FROM {table.name}"
            )

    async def commit(self) -> None:
        await self.transaction.commit()

    async def close(self) -> None:
        if self.conn.is_in_transaction():
            await self.transaction.rollback()
        await self.conn.close()


async def _side(target: str) -> SqliteSide | PostgresSide:
    if is_postgres(target):
        return await PostgresSide.open(target)
    return await SqliteSide.open(target)


def checksum(tables: dict[str, list[tuple[Any, ...]]]) -> str:
    """SHA-256 over every table's rows in key order (the values' repr, one row a line)."""
    digest = hashlib.sha256()
    for name in sorted(tables):
        digest.update(f"{name}\n".encode())
        for row in tables[name]:
            digest.update(repr(row).encode() + b"\n")
    return digest.hexdigest()


async def _prepare(source: str, target: str) -> None:
    """Both brought to the current schema (created for a new target); refusals first."""
    for where in (source, target):  # before anything is opened, or made, at either end
        refused = unknown_url(where)
        if refused is not None:
            raise CopyError(refused)
    if not is_postgres(source) and not Path(source).is_file():
        raise CopyError(f"{source}: no such database file")
    if not is_postgres(source) and not is_postgres(target):
        if Path(source).resolve() == Path(target).resolve():
            raise CopyError("the source and the target are the same file")
    elif source == target:
        raise CopyError("the source and the target are the same database")
    for where in (source, target):
        store = await open_store(where)
        await store.close()


async def copy_database(source: str, target: str) -> Copied:
    """Copy the database at ``source`` into the empty one at ``target`` (a SQLite path or a
    ``postgresql://`` URL each) and verify it; ``CopyError`` if refused or not equal."""
    await _prepare(source, target)
    src, dst = await _side(source), await _side(target)
    try:
        full = [t.name for t in TABLES if await dst.read(t)]
        if full:
            raise CopyError(
                f"{describe(target)} is not empty (rows in {', '.join(full)}): a copy goes "
                "into an empty database only"
            )
        read = {t.name: await src.read(t) for t in TABLES}
        for table in TABLES:
            await dst.write(table, read[table.name])
        written = {t.name: await dst.read(t) for t in TABLES}
        counts = {name: len(rows) for name, rows in read.items()}
        wrong = [n for n in counts if len(written[n]) != counts[n]]
        if wrong:
            raise CopyError(f"row counts differ after the copy in {', '.join(wrong)}")
        if checksum(read) != checksum(written):
            bad = [n for n in read if read[n] != written[n]]
            raise CopyError(f"the copy differs from the source in {', '.join(bad)}")
        await dst.commit()
    finally:
        await src.close()
        await dst.close()
    return Copied(counts, checksum(read))


async def database_checksum(target: str) -> Copied:
    """The row counts and checksum of the database at ``target`` (as ``copy_database``
    computes them), read in one snapshot."""
    side = await _side(target)
    try:
        read = {t.name: await side.read(t) for t in TABLES}
    finally:
        await side.close()
    return Copied({name: len(rows) for name, rows in read.items()}, checksum(read))
