"""A test run killed hard leaves no PostgreSQL server running for ever: the next run's
``PgServer.start()`` finds the servers whose owner is gone and stops them
(tests/bot/pg_server.py, ``stop_orphans``), and leaves a live run's server alone."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import asyncpg
import pytest
from pg_server import OWNER, PgServer, stop_orphans

from tests.procs import alive

pytestmark = pytest.mark.postgres

HERE = Path(__file__).resolve().parent
STARTS_ONE = f"""
import sys, time
sys.path.insert(0, {str(HERE)!r})
from pg_server import PgServer
server = PgServer()
server.url = ""
server.start()
print(server.folder, server.url, flush=True)
time.sleep(600)
"""


def postmaster(folder: Path) -> int:
    return int((folder / "data" / "postmaster.pid").read_text().split()[0])


async def answers(url: str) -> bool:
    try:
        conn = await asyncpg.connect(url, timeout=5)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    await conn.close()
    return True


async def test_a_run_killed_hard_leaves_a_server_the_next_run_stops(
    pg_server: PgServer, tmp_path: Path
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", STARTS_ONE], stdout=subprocess.PIPE, text=True, cwd=tmp_path
    )
    try:
        assert child.stdout is not None
        folder_text, url = child.stdout.readline().split()
    finally:
        child.send_signal(signal.SIGKILL)  # killed hard: its stop() never runs
        child.wait()
    folder = Path(folder_text)
    server_pid = postmaster(folder)
    assert await answers(url)  # left running by the run that was killed
    unowned = Path(tempfile.mkdtemp(prefix="reel-pg-"))  # names no owner: not ours to stop
    try:
        cleaned = await asyncio.to_thread(stop_orphans)
        assert folder in cleaned and unowned not in cleaned
        assert not folder.exists() and unowned.exists()
        assert not await answers(url)
        assert not alive(server_pid)
        # the session's own server (its owner, this test run, alive) still answers
        assert pg_server.folder is None or (pg_server.folder / OWNER).exists()
        assert await answers(pg_server.url)
    finally:
        unowned.rmdir()
