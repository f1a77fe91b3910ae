"""A throwaway PostgreSQL server for the tests: ``initdb`` + ``pg_ctl`` in a fresh folder.

``PgServer.start()`` creates a cluster in a temporary folder, starts it on 127.0.0.1 at a
free port (its socket in the folder too), and ``stop()`` stops it (``-m immediate``) and
removes the folder. As root (CI runs as root, and PostgreSQL refuses to run as root) the
server programs run as the ``postgres`` system user, in a folder that user owns.

``REEL_TEST_DATABASE_URL`` points the tests at a server started by hand instead (a
``postgresql://`` URL of a user who may create databases): nothing is started then.

A test gets a database of its own: ``fresh_database()`` creates one (a copy of a template
database already migrated, so a test pays no migration) and ``drop_database`` drops it.
No PostgreSQL on the machine is a failure, never a skip: these tests are part of the suite.

A run killed hard (SIGKILL, a lost terminal) never reaches ``stop()``, and ``pg_ctl``'s
server, a daemon, would run for ever. So each server's folder names its owner (``OWNER``:
the test process's id and start time) and the next run's ``start()`` first stops every
server whose owner is gone (``stop_orphans``), and removes its folder. A server whose owner
still runs (another test run on the same machine) is left alone, and so is a folder that
names no owner (not one of ours, or made before owners were written).
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.store.postgres import PostgresStore

TEMPLATE = "reel_template"
USER = "reel"
PREFIXES = ("reel-pg-", "reel-scale-pg-")  # the tests' servers, bench/scale.py's
OWNER = "owner"  # in a server's folder: "PID START" of the process that started it
_numbers = itertools.count(1)


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, from /proc), so that a process
    id used again by a later process is told apart; None if there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return None if fields[0] == "Z" else fields[19]


def claim(folder: Path) -> None:
    """Write in ``folder`` that this process owns the server there (``stop_orphans``)."""
    (folder / OWNER).write_text(f"{os.getpid()} {_start_time(os.getpid())}\n")


def _owner_alive(folder: Path) -> bool | None:
    """Whether the process that started the server in ``folder`` still runs; None when
    the folder names no owner."""
    try:
        pid, started = (folder / OWNER).read_text().split()
    except (OSError, ValueError):
        return None
    return _start_time(int(pid)) == started


def stop_orphans(root: Path | None = None) -> list[Path]:
    """Stop the throwaway servers whose owner process is gone (a run killed hard), and
    remove their folders; the folders cleaned. Servers of live runs, and folders naming no
    owner, are left alone."""
    cleaned = []
    base = Path(root or tempfile.gettempdir())
    for prefix in PREFIXES:
        for folder in sorted(base.glob(f"{prefix}*")):
            if not folder.is_dir() or _owner_alive(folder) is not False:
                continue
            data = folder / "data"
            if (data / "postmaster.pid").exists() and shutil.which("pg_ctl"):
                stop = [_program("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]
                subprocess.run(
                    _as_server_user(stop),
                    capture_output=True,
                    check=False,
                    timeout=60,
                )
            shutil.rmtree(folder, ignore_errors=True)
            cleaned.append(folder)
    return cleaned


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _as_server_user(argv: list[str]) -> list[str]:
    """``argv`` as the ``postgres`` system user when we are root (the server refuses root)."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *argv]
    return argv


def _program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(
            f"PostgreSQL's {name} is not on the PATH: the tests marked 'postgres' need a "
            "PostgreSQL server (install it, or set REEL_TEST_DATABASE_URL to a running one)"
        )
    return found


class PgServer:
    """One PostgreSQL server for the test session, and databases on it."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.url = os.environ.get("REEL_TEST_DATABASE_URL", "").strip()
        self._started = False
        self._template = False  # the template database is ready
        self.orphans: list[Path] = []  # folders of servers left by runs killed hard

    def start(self) -> None:
        if self.url:
            return  # a server started by hand
        initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
        self.orphans = stop_orphans()  # servers of runs killed hard: stopped
        folder = Path(tempfile.mkdtemp(prefix=PREFIXES[0]))
        claim(folder)
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
        self.folder = folder
        data = folder / "data"
        run = {"check": True, "capture_output": True}
        subprocess.run(
            _as_server_user(
                [initdb, "-D", str(data), "-U", USER, "--auth=trust", "--no-sync", "-E", "UTF8"]
            ),
            **run,  # type: ignore[call-overload]
        )
        port = _free_port()
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={folder} "
            "-c fsync=off -c full_page_writes=off -c max_connections=300"
        )
        subprocess.run(
            _as_server_user(
                [pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-o", options, "-w", "start"]
            ),
            **run,  # type: ignore[call-overload]
        )
        self._started = True
        self.url = f"postgresql://{USER}@127.0.0.1:{port}/postgres"

    def stop(self) -> None:
        """Stop the server (at once: its data is thrown away) and remove its folder."""
        if self._started and self.folder is not None:
            subprocess.run(
                _as_server_user(
                    [_program("pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "stop"]
                ),
                capture_output=True,
                check=False,
            )
            self._started = False
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def database_url(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path=f"/{name}"))

    async def _admin(self, sql: str) -> None:
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def prepare_template(self) -> None:
        """The template database: created and migrated once for the session."""
        if self._template:
            return
        self._template = True
        await self._admin(f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)")
        await self._admin(f"CREATE DATABASE {TEMPLATE}")
        store = PostgresStore(self.database_url(TEMPLATE))
        await store.connect()
        await store.close()

    async def fresh_database(self, migrated: bool = True) -> str:
        """A new empty database (migrated to the current schema, or not at all); its URL."""
        if migrated:
            await self.prepare_template()
        name = f"reel_test_{os.getpid()}_{next(_numbers)}"
        template = f" TEMPLATE {TEMPLATE}" if migrated else ""
        await self._admin(f"CREATE DATABASE {name}{template}")
        return self.database_url(name)

    async def drop_database(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")
        await self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
