"""``reel solve | head`` and ``reel study | head``: when stdout's reader has gone, the command
stops quietly (no traceback) with the status a shell gives a tool stopped by SIGPIPE."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.solver.cli import EXIT_BROKEN_PIPE

ROOT = Path(__file__).resolve().parents[3]


def run_into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot.cli ARGS`` with stdout a pipe whose reader closed before the start,
    so the command's first write to stdout fails (deterministically, not by a race)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "bot.cli", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--deal", "16", "--budget", "5s"],
        ["study", "--deals", "16-17", "--budget", "1s", "--quiet"],
    ],
)
def test_a_closed_pipe_stops_the_command_quietly(args: list[str], tmp_path: Path) -> None:
    if args[0] == "study":
        args = [*args, "--csv", str(tmp_path / "study.csv")]
    done = run_into_a_closed_pipe(*args)
    assert done.stderr == ""  # no BrokenPipeError traceback, no "Exception ignored" at exit
    assert done.returncode == EXIT_BROKEN_PIPE == 141


def test_an_open_pipe_gets_everything_and_status_0() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "solve", "--deal", "16", "--budget", "5s"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Deal 16: won in ")
