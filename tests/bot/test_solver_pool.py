"""The solver's worker pool: a job given up by its caller (``run_within``, a hint past its
deadline) is dropped if it has not started, and stopped with its worker if it hangs, while
the other callers' jobs end as they would have and the next jobs go to fresh workers."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hung_jobs import nap, sleep_forever

import bot.service.pool as pool_module
from bot.service.pool import PastDeadline, SolverPool
from tests.procs import alive

GUARD = 60.0  # seconds: what never comes fails the test, rather than hang it


async def until(condition: Callable[[], bool]) -> None:
    """Wait until ``condition()`` holds (failing the test after ``GUARD`` seconds)."""
    for _ in range(int(GUARD / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    pytest.fail("waited in vain")


async def test_a_hung_job_given_up_is_stopped_and_the_pool_goes_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(pool_module, "OVERDUE_SECONDS", 0.1)
    pid_file = tmp_path / "hung.pid"
    monkeypatch.setenv("REEL_TEST_PID_FILE", str(pid_file))  # the workers inherit it
    pool = SolverPool(workers=2)  # real worker processes
    try:
        asking = asyncio.create_task(pool.run_within(3600, sleep_forever))
        await until(lambda: pid_file.exists() and pid_file.read_text() != "")
        hung = int(pid_file.read_text())
        napping = pool.run(nap, 1.0, 7)  # another caller's job, in the same pool
        asking.cancel()  # its caller gives up on it (as at a deadline): it runs on, hung
        with pytest.raises(asyncio.CancelledError):
            await asking
        await until(lambda: pool.hung == 1)
        # The hung pool's other job ends as it would have, then the hung worker is stopped.
        value, napper = await napping
        assert value == 7 and napper != hung
        await until(lambda: not alive(hung))
        # The next jobs go to fresh workers.
        value, fresh = await pool.run(nap, 0.0, 8)
        assert value == 8 and fresh not in (hung, napper)
        assert pool.failed == 1 and pool.in_flight == 0  # the hung job, stopped
    finally:
        await pool.close()


async def test_a_job_given_up_before_it_starts_never_runs(tmp_path: Path) -> None:
    ran: list[int] = []
    gate = threading.Event()
    pool = SolverPool(ThreadPoolExecutor(1))
    try:
        busy = pool.run(gate.wait)  # the one thread, taken
        with pytest.raises(PastDeadline):
            await pool.run_within(0.0, ran.append, 1)
        gate.set()
        await busy
        await pool.run(ran.append, 2)
        assert ran == [2] and pool.hung == 0
    finally:
        gate.set()
        await pool.close()
