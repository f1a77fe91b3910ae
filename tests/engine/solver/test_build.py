"""The installed solver: compiled at install, it answers exactly as the source does.

The tests import the source tree (pure Python). The installed package, when
the install found a C compiler, holds the same modules compiled by mypyc, and
its hottest loops (the dead-card fixpoint, the ordering probe and the dead-end
test) in C, ``engine/solver/_native.c`` (setup.py). These tests run the installed one
in a fresh interpreter, away from the source tree, and compare it with the source on
deals that end won, lost, out of budget, won by a split, won by a beam, and lost
past the start of the pruning for hard deals: same verdict, same node count, same line,
with the C loops and without them. And the C loops against their Python
twins, call by call, on thousands of positions of winning lines and of random
play off them.
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
from engine.solver import blind_choice, solve
from engine.solver import search as source_search

# (deal, node budget) for the search alone: won quickly, lost at the root, out of
# budget, and proven lost by the probe after a deal (not at the root)
DEALS = (
    (3, 20_000),
    (53, 20_000),
    (58, 20_000),
    (37, 100_000),
)

# deals the search alone leaves undecided, which the SAT prover decides: lost, won
SAT_DEALS = (15, 138)

SCRIPT = f"""
import json
from engine import Game, solver
from engine.solver import search
results = {{}}
for native in (True, False):
    results[native] = []
    for deal, nodes in {DEALS!r}:
        s = solver.solve(
            Game.new(deal),
            max_nodes=nodes,
            max_seconds=1e9,
            native=native,
            probe_every_deal=True,
            sat=False,
        )
        results[native].append([s.verdict.value, s.nodes, [repr(m) for m in s.line]])
# the search that hands over to the SAT prover (a deal lost, a deal won)
with_sat = []
for deal in {SAT_DEALS!r}:
    s = solver.solve(Game.new(deal), max_nodes=10**7, max_seconds=1e9, probe_every_deal=True)
    with_sat.append([s.verdict.value, s.nodes, [repr(m) for m in s.line]])
# the default of the probe at every deal, as (nodes by default, with it, without it)
by_default = [
    solver.solve(
        Game.new(13), max_nodes=2_000, max_seconds=1e9, probe_every_deal=p, sat=False
    ).nodes
    for p in (None, True, False)
]
print(json.dumps({{
    "file": search.__file__,
    "native": solver.NATIVE,
    "results": results[True],
    "without_c": results[False],
    "by_default": by_default,
    "with_sat": with_sat,
}}))
"""

# Each C loop against its Python twin, on the same model: every position along
# the winning lines of three deals, and up to six random moves off each. For
# each, the closure with and without the probe (and with the orders it learnt
# given back as known), the due cards, and the dead-end test with random waits
# and random due cards.
NATIVE_SCRIPT = """
import json
import random
from engine import Game
from engine.notation import format_position
from engine.solver import blind_choice, solve
from engine.solver.closure import bounds
from engine.solver.model import Model
from engine.solver.phase import can_end_phase, due_by

rng = random.Random(7)


def positions(deals):
    for deal in deals:
        game = Game.new(deal)
        line = solve(game, max_nodes=60_000, max_seconds=1e9).line
        assert line
        for move in line:
            yield game
            off = game.copy()
            for _ in range(rng.randint(1, 6)):
                moves = off.legal_moves()
                if not moves:
                    break
                off.play(rng.choice(moves))
                yield off.copy()
            game = game.copy()
            game.play(move)


def summary(b):
    return None if b is None else [b.joined, sorted(b.after.items()), b.fill_by]


counts = {"compared": 0, "alive": 0, "due": 0, "ended": 0, "stuck": 0}
for game in positions((1, 2, 10)):
    fast, slow = Model(game, True), Model(game, False)
    assert fast.native and not slow.native
    for probe in (False, True):
        bf, bs = bounds(fast, probe), bounds(slow, probe)
        assert summary(bf) == summary(bs), format_position(game)
        counts["compared"] += 1
        if bf is None or bs is None:
            continue
        counts["alive"] += 1
        known = summary(bounds(fast, probe, bf.after))
        assert known == summary(bounds(slow, probe, bs.after)), format_position(game)
        if fast.dealt >= len(fast.stock):
            continue
        mf, ms = due_by(fast, bf, fast.deals), due_by(slow, bs, slow.deals)
        assert mf == ms, format_position(game)
        counts["due"] += bool(mf)
        out = [i for i in range(len(fast.card)) if not fast.home[i]]
        for _ in range(4):
            waits = rng.sample(out, min(len(out), rng.randint(0, 4)))
            due = rng.choice([mf or 0, 0, sum(1 << i for i in rng.sample(out, min(2, len(out))))])
            fast.waiting = slow.waiting = sum(1 << i for i in waits)
            ends = can_end_phase(fast, bf.joined, due)
            assert ends == can_end_phase(slow, bs.joined, due), format_position(game)
            counts["ended" if ends else "stuck"] += 1
        fast.waiting = slow.waiting = 0
print(json.dumps(counts))
"""

# The C module refuses what it cannot read, with a Python exception, not a crash.
BAD_ARGUMENTS_SCRIPT = """
from engine.solver import _native
errors = []
for call in (
    lambda: _native.tables([0, 60], [-1, -1], [-1, -1]),  # a card out of range
    lambda: _native.tables([0, 1], [-1], [-1, -1]),  # a list of the wrong length
    lambda: _native.fixpoint(None, *[0] * 15),  # no tables
    lambda: _native.probe(_native.tables([0], [-1], [-1]), *[0] * 13),  # no lists
    lambda: _native.can_end_phase(_native.tables([0], [-1], [-1]), 1, 2),  # too few
    lambda: _native.can_end_phase(
        _native.tables([0], [-1], [-1]), [0] * 52, [False], [0, 0, 0], [[5]], [[], [], []],
        [0], 0, b"", b""),  # an instance out of range
):
    try:
        call()
    except (TypeError, ValueError) as e:
        errors.append(type(e).__name__)
print(",".join(errors))
"""


def run_installed(tmp_path: Path, script: str) -> str:
    """Run ``script`` in a fresh interpreter on the installed package; its output."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run(
        [sys.executable, "-P", "-c", script],  # -P: the working folder stays off the path
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
    return run.stdout


def installed_solver(tmp_path: Path) -> dict[str, object]:
    answer: dict[str, object] = json.loads(run_installed(tmp_path, SCRIPT))
    return answer


def skip_without_c_loops(tmp_path: Path) -> None:
    if "True" not in run_installed(tmp_path, "from engine import solver; print(solver.NATIVE)"):
        pytest.skip("the installed solver has no C loops (no compiler at install)")


def test_the_tests_run_the_pure_python_source() -> None:
    assert source_search.__file__ is not None
    assert source_search.__file__.endswith(".py")
    assert not source_solver.NATIVE  # and the Python twins of the C loops


def test_the_compiled_solver_answers_as_the_source(tmp_path: Path) -> None:
    installed = installed_solver(tmp_path)
    if not str(installed["file"]).endswith((".so", ".pyd")):
        pytest.skip("the installed solver is pure Python (no compiler at install)")
    solutions = [
        solve(Game.new(deal), max_nodes=nodes, max_seconds=1e9, probe_every_deal=True, sat=False)
        for deal, nodes in DEALS
    ]
    verdicts = [s.verdict.value for s in solutions]
    assert verdicts == ["won", "unwinnable", "unknown", "unwinnable"]
    assert solutions[3].nodes > 1
    expected = [[s.verdict.value, s.nodes, [repr(m) for m in s.line]] for s in solutions]
    assert installed["results"] == expected


def test_the_compiled_solver_hands_over_to_the_sat_prover_as_the_source(tmp_path: Path) -> None:
    installed = installed_solver(tmp_path)
    if not str(installed["file"]).endswith((".so", ".pyd")):
        pytest.skip("the installed solver is pure Python (no compiler at install)")
    solutions = [
        solve(Game.new(deal), max_nodes=10**7, max_seconds=1e9, probe_every_deal=True)
        for deal in SAT_DEALS
    ]
    assert [s.verdict.value for s in solutions] == ["unwinnable", "won"]
    expected = [[s.verdict.value, s.nodes, [repr(m) for m in s.line]] for s in solutions]
    assert installed["with_sat"] == expected


def test_the_installed_solver_probes_at_every_deal_by_default_with_its_c_loops(
    tmp_path: Path,
) -> None:
    installed = installed_solver(tmp_path)
    counts = installed["by_default"]
    assert isinstance(counts, list) and len(counts) == 3
    default, probed, plain = counts
    assert probed != plain  # deal 13 at 2,000 nodes: the two searches differ
    assert default == (probed if installed["native"] else plain)


def test_the_solver_answers_the_same_with_and_without_its_c_loops(tmp_path: Path) -> None:
    installed = installed_solver(tmp_path)
    if not installed["native"]:
        pytest.skip("the installed solver has no C loops (no compiler at install)")
    assert installed["results"] == installed["without_c"]


def test_the_c_loops_answer_as_their_python_twins_call_by_call(tmp_path: Path) -> None:
    skip_without_c_loops(tmp_path)
    counts = json.loads(run_installed(tmp_path, NATIVE_SCRIPT))
    # enough positions of every kind for the comparison to mean something
    assert counts["compared"] > 2000
    assert counts["compared"] > counts["alive"] > 1000  # some positions are lost
    assert counts["due"] > 50
    assert counts["ended"] > 500 and counts["stuck"] > 500


def test_the_c_module_refuses_bad_arguments_with_an_exception(tmp_path: Path) -> None:
    skip_without_c_loops(tmp_path)
    errors = run_installed(tmp_path, BAD_ARGUMENTS_SCRIPT).strip().split(",")
    expected = ["ValueError", "TypeError", "TypeError", "TypeError", "TypeError", "ValueError"]
    assert errors == expected


BLIND_SCRIPT = """
from engine import Game
from engine.solver import blind_choice
game, moves = Game.new(1), []
for _ in range(8):
    choice = blind_choice(game, samples=3, max_nodes=500)
    moves.append(f"{choice.move}/{choice.reason}/{choice.wins}/{choice.lost}")
    game.play(choice.move)
print(";".join(moves))
"""


def test_the_compiled_blind_player_plays_as_the_source(tmp_path: Path) -> None:
    # the blind player's searches probe at every deal in both builds, so the same games
    installed = run_installed(tmp_path, BLIND_SCRIPT).strip()
    game, moves = Game.new(1), []
    for _ in range(8):
        choice = blind_choice(game, samples=3, max_nodes=500)
        moves.append(f"{choice.move}/{choice.reason}/{choice.wins}/{choice.lost}")
        game.play(choice.move)
    assert installed == ";".join(moves)
