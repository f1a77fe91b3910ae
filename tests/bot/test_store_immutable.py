"""The store when its database's files are made immutable under it (``chattr +i`` on the
file, its ``-wal`` and its ``-shm``, the read-only database of a fault driver, which
binds root too).

SQLite keeps the WAL index (``-shm``) mapped into memory and writes it there; once it is
immutable, the kernel answers such a write with SIGBUS, which kills the process with no
error to catch. The store checks the index before each call and refuses it instead, as
read-only. The risky part runs in a process of its own (``shm_player.py``), so a SIGBUS
fails the test rather than killing pytest; a test that can't make files immutable here
is skipped (``tests/immutable.py``).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

import pytest

from bot.store import GameStart, Store, StoreReadOnlyError
from tests.immutable import immutable

PLAYER = Path(__file__).with_name("shm_player.py")
ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0  # seconds: a child's whole run, on a loaded machine

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="chattr and SIGBUS: Linux")


def files_of(db: Path) -> tuple[Path, Path, Path]:
    """The database and its write-ahead log and WAL index."""
    return db, Path(f"{db}-wal"), Path(f"{db}-shm")


def child(*args: str) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.Popen(
        [sys.executable, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


def next_line(proc: subprocess.Popen[str]) -> str:
    """The child's next line on stdout; fails the test if it died (its exit, its stderr)."""
    assert proc.stdout is not None and proc.stderr is not None
    line = proc.stdout.readline()
    if not line:
        code = proc.wait(timeout=WAIT)
        raise AssertionError(f"the child died: exit {code} (-7: SIGBUS)\n{proc.stderr.read()}")
    return line


def go_on(proc: subprocess.Popen[str]) -> None:
    stdin: IO[str] | None = proc.stdin
    assert stdin is not None
    stdin.write("go\n")
    stdin.flush()


SQLITE_ALONE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("CREATE TABLE t (x)")
conn.execute("INSERT INTO t VALUES (1)")
print("ready", flush=True)
sys.stdin.readline()
conn.execute(sys.argv[2]).fetchall()
print("survived", flush=True)
"""


@pytest.mark.parametrize("statement", ["INSERT INTO t VALUES (2)", "SELECT count(*) FROM t"])
def test_sqlite_alone_dies_of_sigbus_when_the_wal_index_is_made_immutable_under_it(
    tmp_path: Path, statement: str
) -> None:
    """Why the store checks: a write, and even a read after a write (it sets a new read
    mark in the index), kill the process. Should this test ever fail, SQLite or the
    kernel no longer does so, and the store's check could go."""
    db = tmp_path / "plain.db"
    proc = child("-c", SQLITE_ALONE, str(db), statement)
    try:
        assert next_line(proc) == "ready\n"
        with immutable(*files_of(db)):
            go_on(proc)
            out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGBUS, (proc.returncode, out, err)
    assert "survived" not in out


def test_while_its_files_are_immutable_every_call_is_refused_and_the_store_goes_on_after(
    tmp_path: Path,
) -> None:
    db = tmp_path / "reel.db"
    proc = child(str(PLAYER), str(db))
    try:
        assert next_line(proc) == "ready\n"
        with immutable(*files_of(db)):
            go_on(proc)
            refused = json.loads(next_line(proc))
        go_on(proc)
        passed = json.loads(next_line(proc))
        _, log = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, log
    shm_refused = f"StoreReadOnlyError: {db}-shm, the WAL index, can't be written"
    assert refused == [shm_refused] * 3  # the write, the read too, and a backup
    assert passed == ["True", "game v3 'deal;R6 ACE'"]  # the refused write applied nothing
    # The operator's log: once when it began, once when it ended.
    assert log.count(f"ERROR the WAL index {db}-shm can't be written") == 1, log
    assert log.count(f"WARNING the WAL index {db}-shm can be written again") == 1, log
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute("SELECT version, moves FROM current_games").fetchall() == [
            (3, "deal;R6 ACE")
        ]


def test_a_close_while_its_files_are_immutable_is_logged_before_sqlite_dies_there(
    tmp_path: Path,
) -> None:
    """The fault the check can't prevent (docs/operations.md): SQLite's checkpoint when
    the last connection closes writes the index. Python 3.11's sqlite3 can't turn it off;
    should this process ever exit 0, the docs' paragraph on it can go."""
    db = tmp_path / "reel.db"
    proc = child(str(PLAYER), str(db), "close")
    try:
        assert next_line(proc) == "ready\n"
        with immutable(*files_of(db)):
            go_on(proc)
            assert "StoreReadOnlyError" in next_line(proc)
            out, log = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGBUS, (proc.returncode, out, log)
    assert "closed" not in out
    assert f"ERROR closing the database {db} while its WAL index can't be written" in log
    with contextlib.closing(sqlite3.connect(db)) as conn:  # nothing acknowledged is lost
        assert conn.execute("SELECT version, moves FROM current_games").fetchall() == [(2, "deal")]


LEAVE_THE_INDEX = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("UPDATE current_games SET moves = 'deal'")
os._exit(0)  # no close: the -wal and -shm stay, as after a crash
"""


async def test_a_store_opened_on_immutable_files_is_refused_as_read_only(
    tmp_path: Path,
) -> None:
    db = tmp_path / "reel.db"
    store = await Store.open(db)
    await store.start_game(GameStart(
        user_id=1, guild_id=None, variant="vr", deal_number=42, moves="", status="playing",
        started_at=datetime(2025, 3, 1, tzinfo=UTC), replaces_version=None,
    ))  # fmt: skip
    await store.close()
    made = subprocess.run([sys.executable, "-c", LEAVE_THE_INDEX, str(db)], capture_output=True)
    assert made.returncode == 0 and all(f.exists() for f in files_of(db)), made.stderr
    # SQLite alone would refuse it too (a process that maps the index after the change
    # maps it read-only); the store's check refuses it first, and names the index.
    with immutable(*files_of(db)), pytest.raises(StoreReadOnlyError, match="-shm"):
        await Store.open(db)
    store = await Store.open(db)  # mutable again: opens
    try:
        game = await store.load_game(1)
        assert game is not None and game.moves == "deal"
    finally:
        await store.close()
