"""Crash safety: a player process is SIGKILLed at random moments; nothing acknowledged is lost.

``crash_player.py`` plays random legal moves for a few users through the
service on a file database and prints each acknowledged game version. This
test kills it with SIGKILL at a random moment, many times over the same file,
and after each kill checks the file: every acknowledged move is there (the
stored version is at least the last acknowledged one, and at most one call
beyond it was in flight), each stored move list replays legally, recorded
games are neither lost nor doubled, and ``PRAGMA integrity_check`` says ok. The same
on PostgreSQL: the player's connections die with it mid-transaction.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store import GameStore
from bot.store.open import open_store

PLAYER = Path(__file__).with_name("crash_player.py")
ROOT = Path(__file__).resolve().parents[2]
RUNS = 25
USERS = 3
MAX_DELAY_S = 0.5

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL"),
    pytest.mark.backends,  # a SQLite file, then a PostgreSQL database
]


def run_and_kill(db_path: Path | str, seed: int, delay: float) -> list[tuple[int, int, int]]:
    """Start the player, SIGKILL it ``delay`` seconds after it is ready; its acknowledgements."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    proc = subprocess.Popen(
        [sys.executable, str(PLAYER), str(db_path), str(seed), str(USERS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        first = proc.stdout.readline()
        assert first == b"ready\n", proc.stderr.read().decode()
        time.sleep(delay)  # a random moment, not a measurement
        proc.send_signal(signal.SIGKILL)
        out = proc.stdout.read()
        err = proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, err.decode()
    lines = out.decode().split("\n")[:-1]  # a last line cut by the kill has no newline
    acks = []
    for line in lines:
        user, version, recorded = line.split()
        acks.append((int(user), int(version), int(recorded)))
    return acks


async def recorded_counts(store: GameStore) -> Counter[int]:
    return Counter(game.user_id for game in await store.finished_games())


async def test_killed_players_lose_nothing_acknowledged(db_target: str) -> None:
    db_path = db_target
    rng = random.Random(20250301)
    before: Counter[int] = Counter()
    acknowledged = 0
    for run in range(RUNS):
        acks = run_and_kill(db_path, seed=run, delay=rng.uniform(0.0, MAX_DELAY_S))
        acknowledged += len(acks)
        last_version: dict[int, int] = {}
        last_recorded: dict[int, int] = {}
        for user, version, recorded in acks:
            assert version > last_version.get(user, 0), "versions rise with every change"
            last_version[user] = version
            last_recorded[user] = recorded

        store = await open_store(db_path)
        try:
            if not store.shared:  # SQLite's own check of the file
                [(check,)] = await store.connection.execute_fetchall(  # type: ignore[attr-defined]
                    "PRAGMA integrity_check"
                )
                assert check == "ok"
            service = GameService(store)
            after = await recorded_counts(store)
            for user, version in last_version.items():
                view = await service.show(user)  # replays the stored move list legally
                assert version <= view.version <= version + 1, (run, user)
                gained = after[user] - before[user]
                assert last_recorded[user] <= gained <= last_recorded[user] + 1, (run, user)
            before = after
        finally:
            await store.close()
    assert acknowledged > RUNS  # the kills did land while moves were being played
