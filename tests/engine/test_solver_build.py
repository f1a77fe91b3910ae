"""The installed solver: compiled by mypyc at install, it answers exactly as the source does.

The tests import the source tree (pure Python). The installed package, when
the install found a C compiler, holds the same module compiled by mypyc
(setup.py). This test runs the installed one in a fresh interpreter, away from
the source tree, and compares it with the source on deals that end won, lost,
out of budget, won by a beam, and lost past the start of the pruning for hard
deals: same verdict, same node count, same line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Game
from engine import solver as source_solver
from engine.solver import solve

# (deal, node budget): won quickly, lost at the root, out of budget, won by the
# first beam (which starts after BEAMS[0][0] nodes), and proven lost once the
# pruning for hard deals has started (after HARD_AFTER nodes)
DEALS = ((3, 20_000), (53, 20_000), (58, 20_000), (157, 100_000), (73, 100_000))

SCRIPT = f"""
import json
from engine import Game, solver
results = []
for deal, nodes in {DEALS!r}:
    s = solver.solve(Game.new(deal), max_nodes=nodes, max_seconds=1e9)
    results.append([s.verdict.value, s.nodes, [repr(m) for m in s.line]])
print(json.dumps({{"file": solver.__file__, "results": results}}))
"""


def installed_solver(tmp_path: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run(
        [sys.executable, "-P", "-c", SCRIPT],  # -P: the working folder stays off the path
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if run.returncode != 0:
        if "No module named 'engine'" in run.stderr:
            pytest.skip("the project is not installed in this interpreter")
        raise AssertionError(run.stderr)
    answer: dict[str, object] = json.loads(run.stdout)
    return answer


def solver_beam_start() -> int:
    return min(start for start, *_ in source_solver.BEAMS)


def test_the_tests_run_the_pure_python_source() -> None:
    assert source_solver.__file__ is not None
    assert source_solver.__file__.endswith(".py")


def test_the_compiled_solver_answers_as_the_source(tmp_path: Path) -> None:
    installed = installed_solver(tmp_path)
    if not str(installed["file"]).endswith((".so", ".pyd")):
        pytest.skip("the installed solver is pure Python (no compiler at install)")
    solutions = [solve(Game.new(deal), max_nodes=nodes, max_seconds=1e9) for deal, nodes in DEALS]
    verdicts = [s.verdict.value for s in solutions]
    assert verdicts == ["won", "unwinnable", "unknown", "won", "unwinnable"]
    assert solutions[3].nodes > solver_beam_start()
    assert solutions[4].nodes > source_solver.HARD_AFTER
    expected = [[s.verdict.value, s.nodes, [repr(m) for m in s.line]] for s in solutions]
    assert installed["results"] == expected
