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
_numbers = itertools.count(1)


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

    def start(self) -> None:
        if self.url:
            return  # a server started by hand
        initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
        folder = Path(tempfile.mkdtemp(prefix="reel-pg-"))
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
