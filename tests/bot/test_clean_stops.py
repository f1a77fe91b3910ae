"""Ctrl-C anywhere ends with one line and exit status 130, never a traceback: the signal
sent to the whole process group, as a terminal sends it (the workers included)."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.solver import cli as solver_cli

EXIT_INTERRUPTED = 130


def started(args: list[str], cwd: Path, stdin: int | None = None) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "REEL_DB")}
    env["REEL_DB"] = str(cwd / "reel.db")
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", *args],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
        start_new_session=True,  # its own process group, to send Ctrl-C to
    )


def interrupt(proc: subprocess.Popen[str], ready: Path | None, delay: float) -> tuple[str, str]:
    """Ctrl-C to ``proc``'s group once ``ready`` exists (or after ``delay``)."""
    deadline = time.monotonic() + 60
    while ready is not None and not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return out, err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_in_a_study_keeps_its_rows_and_exits_130(tmp_path: Path, jobs: str) -> None:
    csv = tmp_path / "study.csv"
    args = ["study", "--deals", "1-100000", "--budget", "1s", "--jobs", jobs, "--csv", str(csv)]
    proc = started(args, tmp_path)
    part = tmp_path / "study.csv.part"
    _, err = interrupt(proc, part, 2.0)
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "reel study: stopped; the deals solved so far are in" in err
    assert part.is_file() and len(part.read_text().splitlines()) > 1  # header and rows


def test_ctrl_c_in_a_solve_exits_130_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # (every deal is decided within a second: too soon to interrupt from outside)
    def interrupted(args: object, out: object = None) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(solver_cli, "main_solve", interrupted)
    status = solver_cli.run_solve_command(argparse.Namespace(command="solve"))
    assert status == EXIT_INTERRUPTED
    assert capsys.readouterr().err == "\nreel solve: stopped\n"


def test_ctrl_c_at_the_prompt_saves_and_exits_130(tmp_path: Path) -> None:
    proc = started(["play", "--deal", "1"], tmp_path, stdin=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write("r6 ace\n")
    proc.stdin.flush()
    out, err = interrupt(proc, tmp_path / "reel.db", 1.5)
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "Traceback" not in err and err == ""
    # (started as a module: the way back names the interpreter and the module, and the
    # save REEL_DB named)
    again = f"'{sys.executable} -m bot.cli play' with REEL_DB={tmp_path / 'reel.db'}"
    assert out.rstrip().endswith(f"Your game is saved. Type {again} to resume it.")
