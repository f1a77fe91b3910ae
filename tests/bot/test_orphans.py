"""No orphans: the solver's worker processes die with the bot, however it dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

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
