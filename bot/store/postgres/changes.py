"""Changes across processes: each process tells the others of its writes (``NOTIFY``) and
hears of theirs (``LISTEN``), on one PostgreSQL connection of its own (docs/scaling.md).

A notification on the channel ``reel_changes`` carries what changed, never the data:
``g<user>:<version>`` (a player's current game, stored at that version) or ``r<race>``
(a race's rows). Whoever follows the changes (``ChangeListener``: the service) reads the
stored game or race itself. Several changes go in one notification, comma-separated, up
to PostgreSQL's payload limit.

Sending: a write's change is queued once the write has returned (durable), and a sender
task sends what is queued in one statement, ``GATHER`` (10 ms) after the first, while the
next changes queue behind it: a few changes a statement when the bot is quiet, many when
it is busy. A race's membership or state changes go at once (``told``). The
connection sends with ``synchronous_commit`` off: a NOTIFY takes a lock that orders the
committing transactions that notify, and holding it across an fsync would make every
process's notifying commits wait for each other's disk flush, one at a time; the writes
themselves are durable already, only the notification (never data) is not waited for.
This is also why the games' table has no trigger that notifies inside the write.

Hearing: a notification sent by this process's own connection is skipped (the service
told its listeners itself). When the connection is lost (the server restarted, a network
fault, the backend killed) the changes keep being queued, the connection is opened again
(after 0.2 s, doubling to 5 s), the queue sent, and the listener told that it may have
missed changes meanwhile (``reconnected``), so it reads again what it follows: nothing is
missed, since it listens again before it reads. A connection that stops answering
(``KEEPALIVE``) is dropped the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Iterable
from typing import Any, Final

import asyncpg

from ..api import ChangeListener

log = logging.getLogger(__name__)

CHANNEL: Final = "reel_changes"
MAX_PAYLOAD: Final = 7900
"""Characters of one notification's payload at most (PostgreSQL refuses 8000 or more)."""
SEND_SQL: Final = "SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload"
CONNECT_WAIT: Final = 5.0
FIRST_RETRY: Final = 0.2
LAST_RETRY: Final = 5.0
GATHER: Final = 0.01
"""Seconds the sender waits after a first change for those that follow, to send them in one
statement: at a few hundred commands a second, a handful a statement instead of one (each
statement is a round trip, about a tenth of a millisecond of the process's CPU)."""
TOLD_WAIT: Final = 0.5
"""Seconds a race's change waits for its notification to be sent (``told``) at most."""
KEEPALIVE: Final = 10.0
"""Seconds between two checks that the connection still answers (each given as long)."""
ITEM: Final = re.compile(r"g(\d{1,20}):(\d{1,20})|r(\d{1,20})")
ERRORS: Final = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


def payloads(items: Iterable[str]) -> list[str]:
    """``items`` joined by commas into payloads of at most ``MAX_PAYLOAD`` characters."""
    found: list[str] = []
    current = ""
    for item in items:
        if current and len(current) + 1 + len(item) > MAX_PAYLOAD:
            found.append(current)
            current = ""
        current = f"{current},{item}" if current else item
    if current:
        found.append(current)
    return found


def tell(listener: ChangeListener, payload: str) -> None:
    """Tell ``listener`` each change ``payload`` names (an item it can't read is logged)."""
    for item in payload.split(","):
        match = ITEM.fullmatch(item)
        if match is None:
            log.warning("a change notification not understood: %r", item[:100])
        elif match[3] is not None:
            listener.race_changed(int(match[3]))
        else:
            listener.game_changed(int(match[1]), int(match[2]))


class Changes:
    """One process's changes told to the others, theirs heard (module docstring). Started
    at the first change to send or listener to tell; ``close`` sends what is queued."""

    def __init__(self, url: str, where: str) -> None:
        self._url = url
        self._where = where
        self._listeners: list[ChangeListener] = []
        self._queued: dict[str, None] = {}  # changes to send, in order, each once
        self._conn: Any = None  # the connection, while it is up
        self._pid = 0  # its server process, whose notifications are this process's own
        self._wake = asyncio.Event()  # something to send, or the connection is back
        self._using = asyncio.Lock()  # one statement at a time on the connection
        self._sending: dict[str, None] = {}  # the changes of the statement under way
        self._sent = asyncio.Event()  # set after each statement sent (``told``)
        self._urgent = False  # a change to send at once (``told``), not after ``GATHER``
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self.reconnects = 0  # times the connection was opened again after a loss
        self.sent = 0  # notifications sent (statements' payloads)
        self.heard = 0  # notifications heard from other processes

    def follow(self, listener: ChangeListener) -> None:
        self._listeners.append(listener)
        self._start()

    def game(self, user_id: int, version: int) -> None:
        """The player's game was stored at ``version`` by this process: tell the others."""
        self._queue(f"g{user_id}:{version}")

    def race(self, race_id: int) -> None:
        """The race's rows were changed by this process: tell the others."""
        self._queue(f"r{race_id}")

    async def told(self, race_id: int, wait: float = TOLD_WAIT) -> None:
        """``race``, and return once the notification is sent (at most ``wait`` seconds): a
        race's membership or state changed, which the other processes should know before
        this one answers (a racer may send their next command to another shard at once)."""
        item = f"r{race_id}"
        self._urgent = True
        self._queue(item)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait):
                while item in self._queued or item in self._sending:
                    self._sent.clear()
                    await self._sent.wait()

    @property
    def connected(self) -> bool:
        return self._conn is not None

    def _queue(self, item: str) -> None:
        if self._closing:
            return
        self._queued[item] = None
        self._wake.set()
        self._start()

    def _start(self) -> None:
        if self._tasks or self._closing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet: started at the first change or listener
            return
        self._tasks = [
            loop.create_task(self._connection(), name="reel-changes-connection"),
            loop.create_task(self._sender(), name="reel-changes-sender"),
        ]

    async def close(self, wait: float = 1.0) -> None:
        """Send what is queued (at most ``wait`` seconds), then close the connection."""
        if not self._tasks:
            self._closing = True
            return
        self._closing = True
        self._wake.set()
        sender = self._tasks[1]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(sender), wait)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(*ERRORS):
                await asyncio.wait_for(conn.close(), wait)

    # ------------------------------------------------------------------ the connection

    async def _connection(self) -> None:
        """Keep the connection up: open it, listen, and open it again when it is lost."""
        retry, first = FIRST_RETRY, True
        while True:
            try:
                conn = await self._open()
            except ERRORS as exc:
                log.warning(
                    "change notifications: cannot connect to %s (%s); trying again in %.1f s",
                    self._where, exc, retry,
                )  # fmt: skip
                await asyncio.sleep(retry)
                retry = min(LAST_RETRY, retry * 2)
                continue
            retry = FIRST_RETRY
            lost = asyncio.Event()
            conn.add_termination_listener(lambda _conn, lost=lost: lost.set())
            self._conn, self._pid = conn, conn.get_server_pid()
            self._wake.set()  # send what was queued meanwhile
            if not first:
                self.reconnects += 1
                log.warning("change notifications: connected to %s again", self._where)
                for listener in self._listeners:
                    listener.reconnected()
            first = False
            await self._until_lost(conn, lost)
            self._conn = None
            log.warning("change notifications: the connection to %s was lost", self._where)

    async def _open(self) -> Any:
        conn = await asyncpg.connect(
            self._url,
            timeout=CONNECT_WAIT,
            server_settings={
                "synchronous_commit": "off",
                "application_name": "virginia-reel changes",
            },
        )
        try:
            await conn.add_listener(CHANNEL, self._heard)
        except BaseException:
            conn.terminate()
            raise
        return conn

    async def _until_lost(self, conn: Any, lost: asyncio.Event) -> None:
        """Return when the connection is lost, or stops answering (it is then dropped)."""
        while not lost.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(lost.wait(), KEEPALIVE)
                return
            try:
                async with self._using:
                    await asyncio.wait_for(conn.fetchval("SELECT 1"), KEEPALIVE)
            except Exception:  # a driver's error, or no answer in time
                conn.terminate()
                return

    def _heard(self, _conn: Any, pid: int, _channel: str, payload: str) -> None:
        if pid == self._pid:
            return  # this process's own
        self.heard += 1
        for listener in self._listeners:
            try:
                tell(listener, payload)
            except Exception:
                log.exception("a listener of change notifications failed")

    # ------------------------------------------------------------------ sending

    async def _sender(self) -> None:
        """Send the queued changes whenever there are some and the connection is up; once
        closing, until nothing is left that can be sent."""
        while True:
            await self._wake.wait()
            if not (self._closing or self._urgent):
                await asyncio.sleep(GATHER)  # the changes of the next moments, in one go
            self._wake.clear()
            self._urgent = False
            conn = self._conn
            if conn is not None and self._queued:
                try:
                    await self._send(conn)
                except Exception as exc:  # kept queued: sent once the connection is back
                    log.warning("change notifications not sent just now: %s", exc)
                    conn.terminate()
                    conn = None
            if self._closing and (conn is None or not self._queued):
                return

    async def _send(self, conn: Any) -> None:
        """Send every change queued now in one statement; those queued meanwhile wait for
        the next. On a failure they are queued again, first."""
        items, self._queued = self._queued, {}
        batch = payloads(items)
        self._sending = items
        try:
            async with self._using:
                await conn.execute(SEND_SQL, CHANNEL, batch)
        except BaseException:
            self._queued = {**items, **self._queued}
            raise
        finally:
            self._sending = {}
            self._sent.set()
        self.sent += len(batch)
        if self._queued:
            self._wake.set()
