"""Blind player benchmark: the time of a blind move and of a whole blind game, one process.

    python bench/blind.py [--deals 1-50] [--variant vr] [--samples N] [--max-nodes N]

Plays each deal of the range blind (``engine.solver.blind_study.play_blind``: the
blind player from the deal to a win or a dead end) and times every move it chooses
(``blind_choice``). Prints the p50 and p99 time a move, for the moves that needed a
search and for all of them, the median and slowest game, the share won, and the load
average beside them (the machine is shared: compare ratios measured in one run).
Targets: p99 under 1 s a move (the computer racer and the fair hint must keep pace
with people), a whole game under 30 s median.

It runs the installed package, so after ``pip install .`` the solver compiled by mypyc
with its C loops (the first line says which build it measured).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

# The installed package (compiled when the install built it); the source tree only when
# the project is not installed. This script's folder leaves the path first: its
# engine.py would shadow the package.
HERE = Path(__file__).resolve().parent
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]
if importlib.util.find_spec("engine") is None:
    sys.path.insert(0, str(HERE.parent))

from engine import Game, variant_by_code  # noqa: E402 (after the path is set)
from engine.notation import format_position  # noqa: E402
from engine.solver import NATIVE, blind_choice  # noqa: E402
from engine.solver import search as search_module  # noqa: E402
from engine.solver.blind import DEFAULT_NODES, DEFAULT_SAMPLES  # noqa: E402


def implementation() -> str:
    compiled = (search_module.__file__ or "").endswith(".so")
    build = "compiled by mypyc" if compiled else "pure Python"
    return f"solver {build}, C loops {'on' if NATIVE else 'off'}"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def play(deal: int, code: str, samples: int, nodes: int) -> tuple[bool, list[float], list[bool]]:
    """A blind game of ``deal``: won, each move's seconds, and whether each searched."""
    game = Game.new(deal, variant_by_code(code))
    seen = {format_position(game)}
    times: list[float] = []
    searched: list[bool] = []
    while not game.is_won():
        start = time.perf_counter()
        try:
            choice = blind_choice(game, samples=samples, max_nodes=nodes, avoid=seen)
        except ValueError:
            break
        times.append(time.perf_counter() - start)
        searched.append(choice.worlds > 0)
        game.play(choice.move)
        seen.add(format_position(game))
    return game.is_won(), times, searched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", default="1-50", help="a range of deals (default 1-50)")
    parser.add_argument("--variant", default="vr", help="the game (default vr)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_NODES)
    args = parser.parse_args()
    low, _, high = args.deals.partition("-")
    deals = range(int(low), int(high or low) + 1)
    load = os.getloadavg()
    print(f"{implementation()}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{len(deals)} deals of {args.variant}, {args.samples} stock orders a decision, "
          f"{args.max_nodes:,} positions each")  # fmt: skip
    moves: list[float] = []
    searches: list[float] = []
    games: list[float] = []
    won = 0
    for deal in deals:
        win, times, searched = play(deal, args.variant, args.samples, args.max_nodes)
        won += win
        moves += times
        searches += [t for t, s in zip(times, searched, strict=True) if s]
        games.append(sum(times))
    print(f"a move:        p50 {percentile(moves, 0.5) * 1000:7.1f} ms   "
          f"p99 {percentile(moves, 0.99) * 1000:7.1f} ms   ({len(moves):,} moves)")  # fmt: skip
    print(f"a search move: p50 {percentile(searches, 0.5) * 1000:7.1f} ms   "
          f"p99 {percentile(searches, 0.99) * 1000:7.1f} ms   (target p99 < 1000 ms)")  # fmt: skip
    print(f"a game:        median {statistics.median(games):6.1f} s   "
          f"slowest {max(games):6.1f} s   (target median < 30 s)")  # fmt: skip
    print(f"won {won} of {len(deals)}")
    end = os.getloadavg()
    print(f"load average at the end {end[0]:.2f} {end[1]:.2f} {end[2]:.2f}")


if __name__ == "__main__":
    main()
