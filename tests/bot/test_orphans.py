"""No orphans: the solver's worker processes die with the bot, however it dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (from /proc: each process's parent)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        children = {child for child, ppid in parents.items() if ppid == parent}
        found |= children
        todo.extend(children)
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is gone but for its parent


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
