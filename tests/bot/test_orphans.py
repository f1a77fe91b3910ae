"""No orphans: the solver's worker processes die with the bot, however it dies."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.service.pool import SolverPool
from tests.procs import alive, descendants

HERE = Path(__file__).resolve().parent


def test_the_solver_workers_die_with_a_killed_bot(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "orphan_player.py"), str(tmp_path / "reel.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(HERE.parent.parent)},
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n", proc.stderr
        workers = descendants(proc.pid)
        assert len(workers) >= 2  # the two workers (and multiprocessing's resource tracker)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in workers if alive(pid)] == []
    finally:
        if proc.poll() is None:
            proc.kill()


async def test_closing_the_pool_stops_a_job_that_runs_on_past_the_wait() -> None:
    pool = SolverPool(workers=1)
    job = pool.run(time.sleep, 600)  # a search with no budget, as a daily's is
    await asyncio.sleep(0)  # the worker starts
    await asyncio.to_thread(wait_for_a_worker, os.getpid())
    workers = {pid for pid in descendants(os.getpid()) if not tracker(pid)}
    await pool.close(wait=0.2)  # returns: it does not wait the job's ten minutes
    assert [pid for pid in workers if alive(pid)] == []
    with pytest.raises(BrokenProcessPool):
        await job


def wait_for_a_worker(parent: int) -> None:
    deadline = time.monotonic() + 30
    while all(tracker(pid) for pid in descendants(parent)) and time.monotonic() < deadline:
        time.sleep(0.05)


def tracker(pid: int) -> bool:
    """Whether ``pid`` is multiprocessing's resource tracker (it lives as long as the
    process that started it, here the test run; a worker is any other child)."""
    try:
        return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
