"""bench/web.py, run small: its clients play through the real server process, and it
reads every game back (the figures themselves are for a person, not asserted)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from browser import required_chromium

from bot.web.limits import SIGN_INS

ROOT = Path(__file__).resolve().parent.parent.parent


def bench(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """``bench/web.py ARGS`` run to its end; past ``timeout`` the bench and the server it
    started are stopped together (its process group), so none is left running."""
    command = [sys.executable, str(ROOT / "bench" / "web.py"), *args]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        start_new_session=True,
    ) as process:  # fmt: skip
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            pytest.fail(f"the bench ran past {timeout:.0f} s:\n{out}\n{err}")
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def test_the_web_bench_plays_reads_back_and_prints_its_figures() -> None:
    done = bench("--clients", "3", "--seconds", "2", "--think", "0.3", "--no-browser", timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "errors 0" in out and "lost or extra moves: 0" in out
    assert "round trip p50" in out and "load average" in out and "gzipped" in out
    assert re.search(r"sockets with no session, 300 at once .*, 0 held open", out)
    refused = re.search(r"sign-ins with bogus codes, 500 in .*: (\d+) refused before", out)
    assert refused is not None and int(refused[1]) >= 500 - SIGN_INS[0]


@pytest.mark.browser
def test_the_web_benchs_first_render_draws_the_board_in_chromium() -> None:
    """The browser part, which once waited for ever for a sign-in that could not come."""
    required_chromium()
    done = bench("--clients", "2", "--seconds", "1", "--think", "0.3", timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"first full render in headless Chromium: \d+ ms cold", done.stdout)


def test_the_race_bench_signs_in_races_reads_back_and_prints_its_figures() -> None:
    done = bench("--race", "--clients", "3", "--seconds", "2", "--think", "0.3", timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "errors 0" in out and "differing from the last board shown: 0" in out
    assert "standings lag" in out and "round trip p50" in out and "load average" in out
