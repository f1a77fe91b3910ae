"""An experiment: Virginia Reel as a scheduling problem, for the CP-SAT solver of OR-tools.

    pip install ortools        # not a dependency of the project (about 200 MB with pandas)
    python bench/cpsat.py [--deals 15,36,37] [--budget 10]

For each deal, prints what CP-SAT (one worker) answers within the budget:
``unwinnable`` (the model is infeasible), ``won`` (it found a schedule, and the
schedule played through the engine to a win), ``unknown``, or ``no line`` (a
schedule that did not play: that would be a flaw of the model). A deal that
the solver's dead-card fixpoint alone proves lost is reported unwinnable at
once, without CP-SAT. See
docs/solver-log.md, "A second prover", for what it found and why it is not
part of the solver.

The model. Number the moves of a winning line 0, 1, 2 ...: the search's
instances (cards not home) each go home at one step ``s[i]`` and the deals still
to come are steps ``D[k]``, all different (a permutation: ties would let two
fills share one space). A winning line gives values that satisfy:

- a card dealt by deal k goes home after it, and no card goes home before the
  phase the dead-card fixpoint of ``engine.solver`` gives it (``soon``);
- a card below another in a reserve pile goes home after it, unless it goes
  home before the deal that puts the other there;
- the k-th copy of a card of rank 5 up goes home after the k-th copy of the
  card three below (counting the copies home already);
- a base fills a space: the row's spaces now, plus its misplaced cards gone
  before, minus its bases placed before, are at least one. An interchange is
  two consecutive steps, the first counting the second's departure;
- at each deal, every row has as many bases placed as spaces opened.

Every winning line satisfies the model, so "infeasible" proves the deal lost.
A schedule found is checked by playing it through the engine, like the
solver's own lines.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]
if importlib.util.find_spec("engine") is None:
    sys.path.insert(0, str(HERE.parent))

from engine import Game  # noqa: E402 (after the path is set)
from engine.cards import RANK_STEP3  # noqa: E402
from engine.solver.closure import bounds  # noqa: E402
from engine.solver.model import IMove, Model  # noqa: E402
from engine.solver.search import line_of, translate  # noqa: E402


def build(model: Model, cp: Any) -> tuple[Any, dict[int, Any], dict[int, Any]]:
    """The CP-SAT model of the position, the step of each instance and of each deal."""
    if model.copies != 2:
        raise ValueError("the model counts the copies of a card as two packs have them")
    m = cp.CpModel()
    card = model.card
    found = bounds(model, probe=True)
    if found is None:  # the fixpoint alone proves it lost
        m.AddBoolOr([])
        return m, {}, {}
    cur, last, arrive, seqs = model.deals, found.last, found.arrive, found.seqs
    pending = found.pending
    top = len(pending) + (last - cur) - 1
    s = {i: m.NewIntVar(0, top, f"s{i}") for i in pending}
    deal = {k: m.NewIntVar(0, top, f"d{k}") for k in range(cur + 1, last + 1)}
    m.AddAllDifferent(list(s.values()) + list(deal.values()))
    for k in range(cur + 1, last):
        m.Add(deal[k] < deal[k + 1])
    less: dict[tuple[str, int, int], Any] = {}  # reified "x < y" (steps all differ)

    def lower(name: str, a: int, b: int, x: Any, y: Any) -> Any:
        if (name, a, b) not in less:
            v = m.NewBoolVar(f"{name}{a}_{b}")
            m.Add(x < y).OnlyEnforceIf(v)
            m.Add(x > y).OnlyEnforceIf(v.Not())
            less[name, a, b] = v
        return less[name, a, b]

    def sooner(i: int, k: int) -> Any:  # s[i] < deal[k]
        return lower("b", i, k, s[i], deal[k])

    def earlier(a: int, b: int) -> Any:  # s[a] < s[b]
        return lower("o", a, b, s[a], s[b])

    for i in pending:
        phase = max(arrive[i], found.joined[i])
        if phase > cur:
            m.Add(s[i] > deal[phase])
    for seq in seqs:
        for p, i in enumerate(seq):
            for u in seq[p + 1 :]:
                if arrive[u] == cur:
                    m.Add(s[u] < s[i])
                else:
                    m.AddBoolOr([sooner(i, arrive[u]), earlier(u, i)])
    copies: dict[int, list[int]] = {}
    for i in pending:
        copies.setdefault(card[i], []).append(i)

    def kth(xs: list[int], k: int, name: str) -> Any:  # the k-th (1 or 2) smallest step
        if len(xs) == 1:
            return s[xs[0]]
        v = m.NewIntVar(0, top, name)
        if k == 1:
            m.AddMinEquality(v, [s[x] for x in xs])
        else:
            m.AddMaxEquality(v, [s[x] for x in xs])
        return v

    for c, mine in copies.items():
        if c < 16:  # Aces, and bases (their rule is the spaces)
            continue
        below = copies.get(c - RANK_STEP3, [])
        for n in range(len(mine)):
            need = model.cnt[c] + 1 + n - model.cnt[c - RANK_STEP3]
            if need <= 0:
                continue
            if need > len(below):
                m.AddBoolOr([])
                break
            m.Add(kth(mine, n + 1, f"c{c}_{n}") > kth(below, need, f"p{c}_{need}"))
    for r in range(3):
        leave = model.mis[r]
        fills = [i for i in pending if card[i] >> 2 == r + 1]
        for b in fills:
            swaps = []
            a = model.row_of[b]
            if a >= 0:  # misplaced in row a: an interchange with a base of row a in row r
                for y in model.mis[r]:
                    if card[y] >> 2 == a + 1:
                        sw = m.NewBoolVar(f"w{b}_{y}")
                        m.Add(s[y] == s[b] + 1).OnlyEnforceIf(sw)
                        swaps.append(sw)
            m.Add(
                model.sp[r]
                + sum(earlier(x, b) for x in leave)
                + sum(swaps)
                - sum(earlier(o, b) for o in fills if o != b)
                >= 1
            )
        for k in deal:
            m.Add(
                model.sp[r] + sum(sooner(x, k) for x in leave) - sum(sooner(b, k) for b in fills)
                == 0
            )
    return m, s, deal


def to_line(model: Model, steps: dict[int, int], deals: dict[int, int]) -> list[IMove] | None:
    """The search's moves in the order of a schedule; None if it does not play."""
    order = sorted([(v, i) for i, v in steps.items()] + [(v, -k) for k, v in deals.items()])
    return line_of(model, tuple(event for _, event in order))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", default="15,36,37", help="a list (15,36) or a range (1-200)")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per deal")
    args = parser.parse_args(argv)
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        sys.exit(
            "this experiment needs OR-tools, which the project does not install: "
            "pip install ortools"
        )
    first, sep, end = args.deals.partition("-")
    deals = range(int(first), int(end) + 1) if sep else [int(d) for d in args.deals.split(",")]
    counts: dict[str, int] = {}
    for number in deals:
        game = Game.new(number)
        start = time.perf_counter()
        m, s, deal = build(Model(game), cp_model)
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = args.budget
        solver.parameters.num_workers = 1
        status = solver.Solve(m)
        if status == cp_model.INFEASIBLE:
            verdict = "unwinnable"
        elif status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            line = to_line(
                Model(game),
                {i: solver.Value(v) for i, v in s.items()},
                {k: solver.Value(v) for k, v in deal.items()},
            )
            verdict = "no line"
            if line is not None:
                try:  # plays it through the engine, which checks every move and the win
                    translate(game, Model(game), line)
                    verdict = "won"
                except (AssertionError, ValueError):
                    pass
        else:
            verdict = "unknown"
        counts[verdict] = counts.get(verdict, 0) + 1
        print(f"{number} {verdict} {time.perf_counter() - start:.2f} s", flush=True)
    print(", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
