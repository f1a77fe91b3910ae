"""The PostgreSQL store: ``GameStore`` on a PostgreSQL database, through an asyncpg pool.

The same contract as the SQLite store (``bot/store/api.py``), for a bot run as several
processes on one database (``docs/storage.md``, "PostgreSQL"):

- every operation takes a connection of the pool for itself, from its first statement
  to its last, inside one transaction when it writes more than one statement; it runs
  to its end even if the caller is cancelled (shielded, as SQLite's ``_op``);
- a write carries the version it expects and compares it in the statement's WHERE
  (``UPDATE ... WHERE version = $n``; ``ON CONFLICT DO UPDATE ... WHERE``): PostgreSQL
  locks the row and checks the condition again on the row a concurrent writer left, so
  of two processes writing one version exactly one applies, the other applies nothing;
- waits are bounded as SQLite's are (docs/operations.md): a connection of the pool
  within ``ACQUIRE_WAIT``, a row lock within ``lock_timeout``, a statement within
  ``statement_timeout``; then ``StoreBusyError``, nothing applied;
- PostgreSQL's errors become the store's: lock or statement timeout, serialization
  failure, deadlock -> ``StoreBusyError``; disk full -> ``StoreFullError``; read-only
  transaction (a standby, ``default_transaction_read_only``) -> ``StoreReadOnlyError``;
  a lost or refused connection -> ``StoreUnavailableError``.

A transaction is durable when its COMMIT returns (``synchronous_commit`` as the server
is set: on by default).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from datetime import date
from typing import Any, Final, TypeAlias, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from ..api import ChangeListener, GameStore
from ..errors import (
    StoreBusyError,
    StoreError,
    StoreFullError,
    StoreReadOnlyError,
    StoreUnavailableError,
)
from ..records import (
    CurrentGame,
    DailyDeal,
    DailyResult,
    FinishedGame,
    GameStart,
    GameUpdate,
    PeriodResult,
    PlayerTotals,
    Totals,
    UserSettings,
)
from ..rows import (
    current_from_row,
    daily_deal_from_row,
    daily_deal_params,
    daily_result_from_row,
    finished_from_row,
    finished_params,
    period_result_from_row,
    player_totals_from_row,
    settings_from_row,
    start_params,
    totals_from_row,
    update_params,
)
from . import queries as q
from . import schema
from .changes import Changes
from .races import SNAPSHOT, PgRaceTables, Snapshot, changed

POOL_SIZE: Final = 10
"""Connections a process keeps at most (docs/storage.md: processes × this ≤ the server's
``max_connections``)."""
ACQUIRE_WAIT: Final = 1.0
"""Seconds a call waits for a connection of the pool before giving up (``StoreBusyError``)."""
CONNECT_WAIT: Final = 5.0
"""Seconds to open a connection to the server before giving up."""
LOCK_TIMEOUT_MS: Final = 1000
STATEMENT_TIMEOUT_MS: Final = 2000
SERVER_SETTINGS: Final = {
    "lock_timeout": str(LOCK_TIMEOUT_MS),
    "statement_timeout": str(STATEMENT_TIMEOUT_MS),
    "idle_in_transaction_session_timeout": "10000",
    "DateStyle": "ISO",
    "TimeZone": "UTC",
    "application_name": "virginia-reel",
}
IMPORT_BATCH: Final = 20_000
# SQLSTATEs told apart (https://www.postgresql.org/docs/current/errcodes-appendix.html)
_BUSY: Final = frozenset({"55P03", "57014", "40001", "40P01", "53300"})
_KINDS: Final[dict[str, type[StoreUnavailableError]]] = {
    "53100": StoreFullError,
    "25006": StoreReadOnlyError,
}
DRIVER_ERRORS: Final = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)

log = logging.getLogger(__name__)
_T = TypeVar("_T")
Conn: TypeAlias = asyncpg.Connection  # Any to mypy: asyncpg ships no types


class _Refused(Exception):
    """Raised inside a transaction to roll it back when a version check fails."""


def safe_url(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def driver_error(where: str, exc: BaseException) -> StoreUnavailableError:
    """The store's error for a driver's (or the system's): busy, full, read-only apart."""
    state = getattr(exc, "sqlstate", None) or ""
    if state in _BUSY:
        kind: type[StoreUnavailableError] = StoreBusyError
    else:
        kind = _KINDS.get(state, StoreUnavailableError)
    return kind(f"{where}: {type(exc).__name__}: {exc}")


def _lost_connection(exc: BaseException) -> bool:
    return isinstance(
        exc, asyncpg.PostgresConnectionError | asyncpg.InterfaceError | OSError
    ) or getattr(exc, "sqlstate", "").startswith(("08", "57P"))


def _consume(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


async def _keep_session(conn: Conn) -> None:
    """The pool's reset of a connection given back: nothing more than asyncpg's own (an
    open transaction rolled back). Its default also sends ``RESET ALL``, ``CLOSE ALL``,
    ``UNLISTEN *`` and ``pg_advisory_unlock_all()``, a second round trip after every
    operation, for session state this store never leaves behind: it sets nothing but
    ``SET LOCAL``, opens no cursor outside a transaction, listens to nothing and takes
    only transaction-scoped advisory locks (research/scale_profile.md)."""


def _tuple(row: Any) -> tuple[Any, ...] | None:
    return None if row is None else tuple(row)


class PostgresStore(GameStore):
    """The game database in PostgreSQL (``postgresql://user:password@host:port/db``).
    ``async with PostgresStore(url)`` (or ``await PostgresStore.open(url)``) creates the
    schema or migrates it, then serves calls from a pool of ``pool_size`` connections."""

    shared = True  # other processes may write the same database
    tells_changes = True  # ... and their changes are heard (changes.py)

    def __init__(self, url: str, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self.where = safe_url(url)
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._open = False
        self._listeners: list[Callable[[], None]] = []
        self._faulted = False  # a connection was lost: tell the listeners once back
        # this process's writes told to the others, theirs heard (changes.py)
        self.changes = Changes(url, self.where)
        self.races = PgRaceTables(self._op, self.changes.race, self.changes.told)

    @classmethod
    async def open(cls, url: str, pool_size: int = POOL_SIZE) -> PostgresStore:
        store = cls(url, pool_size)
        await store.connect()
        return store

    async def connect(self) -> None:
        """Connect, create or migrate the schema, refuse a read-only server, open the pool."""
        if self._open:
            return
        try:
            conn = await asyncpg.connect(self.url, timeout=CONNECT_WAIT)
        except (*DRIVER_ERRORS, TimeoutError) as exc:
            raise StoreUnavailableError(f"{self.where}: cannot connect: {exc}") from exc
        try:
            if await conn.fetchval("SHOW transaction_read_only") == "on":
                raise StoreReadOnlyError(f"{self.where} can't be written (read-only)")
            await schema.migrate(conn, self.where)
        except DRIVER_ERRORS as exc:
            raise driver_error(self.where, exc) from exc
        finally:
            await conn.close()
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                timeout=CONNECT_WAIT,
                server_settings=SERVER_SETTINGS,
                reset=_keep_session,
            )
        except (*DRIVER_ERRORS, TimeoutError) as exc:
            raise StoreUnavailableError(f"{self.where}: cannot connect: {exc}") from exc
        self._open = True

    async def close(self) -> None:
        """Close the pool; operations under way finish first."""
        if not self._open:
            return
        self._open = False
        await self.changes.close()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    def follow_changes(self, listener: ChangeListener) -> None:
        """Tell ``listener`` of the other processes' changes (``changes.Changes``: LISTEN
        on a connection of its own, opened now)."""
        super().follow_changes(listener)
        self.changes.follow(listener)

    def on_reopen(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after a lost connection, once the database answers again."""
        self._listeners.append(listener)

    async def _op(
        self, work: Callable[[Conn], Awaitable[_T]], transaction: bool | Snapshot = False
    ) -> _T:
        """Run ``work`` on a connection of its own (in one transaction if ``transaction``;
        ``SNAPSHOT``: a read-only one whose statements all see one snapshot, as PostgreSQL's
        default isolation gives each statement its own), to its end even if the caller is
        cancelled; driver errors become the store's."""
        if not self._open or self._pool is None:
            raise StoreError("the store is not open")
        pool = self._pool

        async def alone() -> _T:
            try:
                conn = await pool.acquire(timeout=ACQUIRE_WAIT)
            except TimeoutError:
                raise StoreBusyError(
                    f"{self.where}: busy: no connection free within {ACQUIRE_WAIT} s"
                ) from None
            except DRIVER_ERRORS as exc:
                self._faulted = True
                raise driver_error(self.where, exc) from exc
            try:
                if transaction == SNAPSHOT:
                    async with conn.transaction(isolation="repeatable_read", readonly=True):
                        result = await work(conn)
                elif transaction:
                    async with conn.transaction():
                        result = await work(conn)
                else:
                    result = await work(conn)
            except DRIVER_ERRORS as exc:
                self._faulted = self._faulted or _lost_connection(exc)
                raise driver_error(self.where, exc) from exc
            finally:
                await pool.release(conn)
            self._back()
            return result

        task = asyncio.ensure_future(self.timed(alone()))
        task.add_done_callback(_consume)
        return await asyncio.shield(task)

    def _back(self) -> None:
        if self._faulted:
            self._faulted = False
            log.warning("the database %s answers again", self.where)
            for listener in self._listeners:
                listener()

    async def _fetchrow(self, sql: str, *args: object) -> tuple[Any, ...] | None:
        async def read(conn: Conn) -> tuple[Any, ...] | None:
            return _tuple(await conn.fetchrow(sql, *args))

        return await self._op(read)

    async def _fetch(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        async def read(conn: Conn) -> list[tuple[Any, ...]]:
            return [tuple(r) for r in await conn.fetch(sql, *args)]

        return await self._op(read)

    async def _write_one(self, sql: str, *args: object) -> bool:
        async def write(conn: Conn) -> bool:
            return changed(await conn.execute(sql, *args)) == 1

        return await self._op(write)

    async def schema_version(self) -> int:
        return await self._op(schema.version)

    async def game_version(self, user_id: int) -> int | None:
        """The stored version of the user's current game (one index lookup)."""

        async def read(conn: Conn) -> int | None:
            found = await conn.fetchval(q.VERSION_SQL, user_id)
            return None if found is None else int(found)

        return await self._op(read)

    async def game_versions(self, user_ids: Collection[int]) -> dict[int, int]:
        """The stored versions of these players' games, in one statement."""
        rows = await self._fetch(q.VERSIONS_SQL, list(user_ids))
        return {int(user): int(version) for user, version in rows}

    async def game_version_and_settings(
        self, user_id: int
    ) -> tuple[int | None, UserSettings | None]:
        """Both in one statement, one round trip (a command's first read)."""
        row = await self._fetchrow(q.VERSION_AND_SETTINGS_SQL, user_id)
        assert row is not None  # one row always, NULLs where nothing is stored
        version = None if row[0] is None else int(row[0])
        return version, None if row[1] is None else settings_from_row(row[1:])

    # ------------------------------------------------------------------ current games

    async def load_game(self, user_id: int) -> CurrentGame | None:
        row = await self._fetchrow(q.CURRENT_SQL, user_id)
        return None if row is None else current_from_row(row)

    async def start_game(
        self, start: GameStart, finished: FinishedGame | None = None
    ) -> int | None:
        params = start_params(start)
        record = None if finished is None else finished_params(finished)
        scored_daily = start.daily_date is not None and start.scored

        async def body(conn: Conn) -> int:
            if record is not None:
                await _record_results(conn, [record])
            if scored_daily:
                status = await conn.execute(q.START_DAILY.sql, *q.START_DAILY.args(params))
                if changed(status) != 1:
                    raise _Refused
            version = await conn.fetchval(q.START.sql, *q.START.args(params))
            if version is None:
                raise _Refused
            return int(version)

        try:
            version = await self._op(body, transaction=True)
        except _Refused:
            return None
        self.changes.game(start.user_id, version)
        return version

    async def save_game(self, update: GameUpdate, finished: FinishedGame | None = None) -> bool:
        args = q.UPDATE.args(update_params(update))
        if finished is None:
            saved = await self._write_one(q.UPDATE.sql, *args)
        else:
            saved = await self._save_finished(args, finished_params(finished))
        if saved:
            self.changes.game(update.user_id, update.version)
        return saved

    async def _save_finished(self, args: tuple[object, ...], record: dict[str, object]) -> bool:
        """The game's last state and its result, in one transaction; False if stale."""

        async def body(conn: Conn) -> None:
            if changed(await conn.execute(q.UPDATE.sql, *args)) != 1:
                raise _Refused
            await _record_results(conn, [record])

        try:
            await self._op(body, transaction=True)
        except _Refused:
            return False
        return True

    async def mark_assisted(
        self,
        user_id: int,
        version: int,
        hint_line: str | None = None,
        lost: tuple[str, int | None] | None = None,
    ) -> bool:
        lost_line, lost_back = (None, None) if lost is None else lost
        params = {
            "user_id": user_id,
            "version": version,
            "hint_line": hint_line,
            "lost_line": lost_line,
            "lost_back": lost_back,
        }
        return await self._write_one(q.MARK_ASSISTED.sql, *q.MARK_ASSISTED.args(params))

    # ------------------------------------------------------------------ finished games

    async def finished_games(self, user_id: int | None = None) -> list[FinishedGame]:
        if user_id is None:
            rows = await self._fetch(q.FINISHED_SQL)
        else:
            rows = await self._fetch(q.FINISHED_BY_USER_SQL, user_id)
        return [finished_from_row(row) for row in rows]

    async def finished_game(self, game_id: int) -> FinishedGame | None:
        row = await self._fetchrow(q.FINISHED_BY_ID_SQL, game_id)
        return None if row is None else finished_from_row(row)

    async def recent_finished(self, user_id: int, limit: int) -> list[FinishedGame]:
        rows = await self._fetch(q.RECENT_FINISHED_SQL, user_id, limit)
        return [finished_from_row(row) for row in rows]

    # ------------------------------------------------------------------ daily and leaderboards

    async def has_daily_attempt(self, user_id: int, day: date, variant: str = "vr") -> bool:
        row = await self._fetchrow(q.HAS_DAILY_ATTEMPT_SQL, user_id, variant, day.isoformat())
        return row is not None

    async def _page(
        self, count_sql: str, rows_sql: str, args: tuple[object, ...], limit: int, offset: int
    ) -> tuple[int, list[tuple[Any, ...]]]:
        """(total rows, one page), read in one transaction (one snapshot)."""

        async def read(conn: Conn) -> tuple[int, list[tuple[Any, ...]]]:
            total = await conn.fetchval(count_sql, *args)
            rows = await conn.fetch(rows_sql, *args, limit, offset)
            return int(total), [tuple(r) for r in rows]

        return await self._op(read, transaction=SNAPSHOT)

    async def daily_board(
        self, day: date, guild_id: int | None, offset: int, limit: int, variant: str = "vr"
    ) -> tuple[int, list[DailyResult]]:
        count_sql, rows_sql = q.daily_board_sql(by_guild=guild_id is not None)
        args: tuple[object, ...] = (variant, day.isoformat())
        args += () if guild_id is None else (guild_id,)
        total, rows = await self._page(count_sql, rows_sql, args, limit, offset)
        return total, [daily_result_from_row(r) for r in rows]

    async def all_time_board(
        self, guild_id: int | None, offset: int, limit: int, variant: str = "vr"
    ) -> tuple[int, list[Totals]]:
        count_sql, rows_sql = q.all_time_board_sql(by_guild=guild_id is not None)
        args: tuple[object, ...] = (variant,) if guild_id is None else (guild_id, variant)
        total, rows = await self._page(count_sql, rows_sql, args, limit, offset)
        return total, [totals_from_row(r) for r in rows]

    async def player_totals(self, user_id: int, variant: str = "vr") -> PlayerTotals | None:
        row = await self._fetchrow(q.PLAYER_TOTALS_ROW_SQL, user_id, variant)
        return None if row is None else player_totals_from_row(row)

    async def deal_record(
        self, user_id: int, deal_number: int, variant: str = "vr"
    ) -> tuple[int, int]:
        row = await self._fetchrow(q.DEAL_RECORD_SQL, user_id, variant, deal_number)
        assert row is not None
        games, wins = row
        return int(games), int(wins)

    async def load_daily_deal(self, day: date, variant: str = "vr") -> DailyDeal | None:
        row = await self._fetchrow(q.DAILY_DEAL_SQL, day.isoformat(), variant)
        return None if row is None else daily_deal_from_row(day, row, variant)

    async def save_daily_deal(self, deal: DailyDeal) -> DailyDeal:
        """The first writer of a date and game wins; every process reads back the one stored."""
        params = daily_deal_params(deal)

        async def body(conn: Conn) -> tuple[Any, ...]:
            await conn.execute(q.SAVE_DAILY_DEAL_SQL, *params)
            row = await conn.fetchrow(q.DAILY_DEAL_SQL, *params[:2])
            return tuple(row)

        row = await self._op(body, transaction=True)
        return daily_deal_from_row(deal.day, row, deal.variant)

    async def save_daily_rating(self, day: date, variant: str, rating: str) -> DailyDeal | None:
        async def body(conn: Conn) -> tuple[Any, ...] | None:
            await conn.execute(q.RATE_DAILY_SQL, rating, day.isoformat(), variant)
            row = await conn.fetchrow(q.DAILY_DEAL_SQL, day.isoformat(), variant)
            return None if row is None else tuple(row)

        row = await self._op(body, transaction=True)
        return None if row is None else daily_deal_from_row(day, row, variant)

    async def daily_finished(
        self, user_id: int, day: date, variant: str = "vr"
    ) -> FinishedGame | None:
        row = await self._fetchrow(q.DAILY_FINISHED_SQL, user_id, variant, day.isoformat())
        return None if row is None else finished_from_row(row)

    async def best_daily_run(self, day: date, variant: str = "vr") -> FinishedGame | None:
        row = await self._fetchrow(q.BEST_DAILY_RUN_SQL, variant, day.isoformat())
        return None if row is None else finished_from_row(row)

    # ------------------------------------------------------------------ settings

    async def load_settings(self, user_id: int) -> UserSettings | None:
        row = await self._fetchrow(q.LOAD_SETTINGS_SQL, user_id)
        return None if row is None else settings_from_row(row)

    async def save_settings(self, user_id: int, settings: UserSettings) -> None:
        await self._write_one(
            q.SAVE_SETTINGS_SQL,
            user_id,
            int(settings.symbols),
            int(settings.auto_aces),
            int(settings.winnable),
            int(settings.watchable),
            int(settings.reminders),
            int(settings.picture),
            int(settings.fair_hints),
        )

    # ------------------------------------------------------------------ bulk

    async def import_results(self, records: Iterable[Mapping[str, object]]) -> int:
        """Write finished games with their totals in one transaction (no statement
        timeout: a bulk load may take long); how many."""
        rows = iter(records)

        async def body(conn: Conn) -> int:
            await conn.execute("SET LOCAL statement_timeout = 0")
            count = 0
            while batch := list(itertools.islice(rows, IMPORT_BATCH)):
                await _record_results(conn, batch)
                count += len(batch)
            return count

        return await self._op(body, transaction=True)

    # ------------------------------------------------------------------ periods, reminders

    async def period_board(
        self,
        first: date,
        last: date,
        guild_id: int | None,
        offset: int,
        limit: int,
        variant: str = "vr",
    ) -> tuple[int, list[PeriodResult]]:
        count_sql, rows_sql = q.period_board_sql(by_guild=guild_id is not None)
        args: tuple[object, ...] = (variant, first.isoformat(), last.isoformat())
        args += () if guild_id is None else (guild_id,)
        total, rows = await self._page(count_sql, rows_sql, args, limit, offset)
        return total, [period_result_from_row(r) for r in rows]

    async def reminder_candidates(self, today: date) -> list[tuple[int, int]]:
        yesterday = date.fromordinal(today.toordinal() - 1)
        rows = await self._fetch(
            q.REMINDER_CANDIDATES_SQL, yesterday.isoformat(), today.isoformat()
        )
        return [(int(r[0]), int(r[1])) for r in rows]


async def _record_results(conn: Conn, records: Iterable[Mapping[str, object]]) -> None:
    """Insert finished games and their totals, inside the caller's transaction (THE one
    way a result is written, as in the SQLite store). A record without "assisted" is
    unassisted."""
    batch = [r if "assisted" in r else {**r, "assisted": 0} for r in records]
    for named in (q.INSERT_FINISHED, q.PLAYER_TOTALS, q.GUILD_TOTALS):
        await conn.executemany(named.sql, [named.args(r) for r in batch])
