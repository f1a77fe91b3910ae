"""Solver benchmark: the share of deals decided within 1 s and within the budget, one core.

    python bench/solver.py [--deals 1-200] [--budget 10] [--max-nodes N] [--clock cpu]
                           [--jobs N] [--verbose]

Each deal of the range is solved once with the budget; a deal counts as
decided within a time if the solver answered won or unwinnable by then.
Prints the fractions decided within 1 s and within the budget, won and
unwinnable counts, how many deals the search handed to its SAT prover (past
``SAT_AFTER`` nodes) and their times, nodes per second, and the median and
p99 time per deal (an undecided deal counts at its full budget). A node is
one call of the search, transposition-table hits included, or one conflict
of the SAT prover.

Times are wall-clock seconds, as a player waits for them. On a machine shared
with other work (a virtual machine whose host takes time from it, a second
process), ``--clock cpu`` gives the budget and the times in the process's CPU
seconds instead, so that runs made at different moments compare. The shares
decided within 100,000 and 400,000 nodes are printed too: they do not depend
on the machine or its load at all (with ``--budget`` large enough that no deal
runs out of time first; otherwise they are marked "at least"), so they are
the way to compare two versions of the search.

``--jobs 2`` solves two deals at a time, in two worker processes: each deal
still runs on one core, so the figures are those of one process, in half the
time on a 2-core machine (use it with ``--clock cpu``, since the workers share
the machine; nodes per second are then per core: the nodes over the seconds the
deals took).

It runs the installed package, so after ``pip install .`` the solver compiled
by mypyc with its C loops (the first line of the output says which build it
measured).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

# The installed package (its solver compiled by mypyc when the install built it);
# the source tree (pure Python) only when the project is not installed. This
# script's folder leaves the path first: its engine.py would shadow the package.
HERE = Path(__file__).resolve().parent
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]
if importlib.util.find_spec("engine") is None:
    sys.path.insert(0, str(HERE.parent))

from engine import Game  # noqa: E402 (after the path is set)
from engine.solver import CLOCKS, NATIVE, SAT_AFTER, Verdict, solve  # noqa: E402
from engine.solver import search as search_module  # noqa: E402


def implementation() -> str:
    """Which build of the solver runs: mypyc's C extension or the pure Python source,
    and whether its hottest loops run in C (engine/solver/_native.c)."""
    path = search_module.__file__ or ""
    build = "compiled (mypyc)" if path.endswith((".so", ".pyd")) else "pure Python"
    return build + (", C loops" if NATIVE else ", no C loops")


def deal_range(text: str) -> range:
    """``1-200`` is deals 1 to 200; ``50`` is deals 1 to 50."""
    first, sep, last = text.partition("-")
    if not sep:
        return range(1, int(first) + 1)
    if int(last) < int(first):
        raise argparse.ArgumentTypeError(f"{text!r}: the range ends before it starts")
    return range(int(first), int(last) + 1)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# node budgets at which the share of deals decided is printed too: unlike the
# seconds, it is the same on every machine and under any load (the search is
# deterministic for a budget in nodes)
NODE_MARKS = (100_000, 400_000)


def nodes_figure(runs: list[tuple[bool, int]], mark: int) -> str:
    """The share of ``runs`` (decided, nodes) decided within ``mark`` nodes.

    "at least" when some deal ran out of time before using that many nodes:
    it might have been decided within the mark with more time.
    """
    share = sum(decided and used <= mark for decided, used in runs) / len(runs)
    cut = any(not decided and used < mark for decided, used in runs)
    return f"{'at least ' if cut else ''}{share:.1%}"


# a deal to solve: its number, the budget in seconds, the node limit, the clock
Job = tuple[int, float, int, str]


def run(job: Job) -> tuple[int, Verdict, int, float]:
    """Solve one deal of the bench: (deal, verdict, nodes, seconds on the chosen clock)."""
    deal, budget, max_nodes, clock_name = job
    s = solve(Game.new(deal), max_nodes=max_nodes, max_seconds=budget, clock=CLOCKS[clock_name])
    return deal, s.verdict, s.nodes, s.seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-200"))
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--max-nodes", type=int, default=10**9)
    parser.add_argument(
        "--clock",
        choices=tuple(CLOCKS),
        default="wall",
        help="time the budget in wall-clock seconds (default) or in CPU seconds of this process",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="deals solved at a time, each in a worker process of its own (default 1)",
    )
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    times: list[float] = []
    sat_times: list[float] = []  # the deals the search handed to the SAT prover
    runs: list[tuple[bool, int]] = []  # (decided, nodes) per deal
    nodes = won = lost = within_1s = 0
    elapsed = 0.0  # the seconds the deals took, on the chosen clock
    work = [(deal, args.budget, args.max_nodes, args.clock) for deal in args.deals]
    with Pool(args.jobs) if args.jobs > 1 else contextlib.nullcontext() as pool:
        results = pool.imap(run, work) if pool is not None else map(run, work)
        for deal, verdict, used, seconds in results:  # in the order of the deals
            decided = verdict is not Verdict.UNKNOWN
            times.append(seconds if decided else args.budget)
            nodes += used
            elapsed += seconds
            runs.append((decided, used))
            won += verdict is Verdict.WON
            lost += verdict is Verdict.UNWINNABLE
            within_1s += decided and seconds <= 1.0
            if used > SAT_AFTER:
                sat_times.append(seconds if decided else args.budget)
            if args.verbose:
                print(f"deal {deal}: {verdict}, {used} nodes, {seconds:.2f} s", flush=True)
    n = len(args.deals)
    workers = f", {args.jobs} deals at a time" if args.jobs > 1 else ""
    print(f"deals {args.deals.start}-{args.deals.stop - 1} ({n}), budget {args.budget:g} s "
          f"({args.clock} clock{workers}), solver {implementation()}")  # fmt: skip
    print(f"decided within 1 s:   {within_1s / n:.1%}")
    if args.budget != 1.0:
        print(f"decided within {args.budget:g} s: {(won + lost) / n:.1%}")
    print(f"won {won}, unwinnable {lost}, unknown {n - won - lost}")
    for mark in NODE_MARKS:
        print(f"decided within {mark:,} nodes: {nodes_figure(runs, mark)}")
    print(f"to the SAT prover:    {len(sat_times)} deals (past {SAT_AFTER:,} nodes)")
    print(f"nodes per second:     {nodes / elapsed:,.0f} (a SAT conflict counts as a node)")
    print(f"time per deal:        median {statistics.median(times):.3f} s, "
          f"p99 {percentile(times, 0.99):.3f} s")  # fmt: skip
    if sat_times:
        print(f"time per deal of the SAT prover's: median {statistics.median(sat_times):.3f} s, "
              f"max {max(sat_times):.3f} s")  # fmt: skip


if __name__ == "__main__":
    main()
