"""What a call costs on an SQLite file: a read from memory (``show``, ``move_choices``) and
a move (``undo``/``redo``, one write each), one process alone on its file.

    python bench/outside.py [--users 200] [--calls 4000] [--rounds 3] [--before TREE]

Since a process notices another's writes to its SQLite file (docs/storage.md, "Two
processes on one file"), a call that answers from memory first looks at the file's
``PRAGMA data_version`` (one round trip on the store's connection, no table read), and a
move's write checks the player's settings. This measures both: the wall time of a call
made alone (one player, one call at a time: the look's latency), the calls a second and
the process's CPU a call with ``--users`` players calling at once.

``--before TREE``: a checkout of the commit before (``git archive BASE | tar -x -C TREE``);
each round then measures that tree, then this one, each in a fresh process (the same
script, ``PYTHONPATH`` set to the tree), and prints them side by side, with the load
average at each start: on a shared machine a figure is only worth its neighbour's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path[0] = str(HERE)  # this tree's bot and engine, not bench/engine.py
KINDS = ("show", "choices", "move")


async def measure(users: int, calls: int) -> dict[str, float]:
    """Per kind: µs of wall a call alone, calls a second and µs of CPU a call at once."""
    from bot.service import GameService, Settings
    from bot.store import Store

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        service = GameService(
            await Store.open(Path(folder) / "reel.db"),
            new_player=Settings(auto_aces=False, winnable=False),
        )
        try:
            for user in range(1, users + 1):
                await service.new_game(user, None, user)
                await service.deal(user)
            undone: set[int] = set()  # the players whose deal is taken back now

            async def call(kind: str, user: int) -> None:
                if kind == "show":
                    await service.show(user)
                elif kind == "choices":
                    await service.move_choices(user, limit=25)
                else:  # a write: undo and redo the deal, in turn
                    act = service.redo if user in undone else service.undo
                    undone.symmetric_difference_update({user})
                    await act(user)

            for kind in KINDS:
                # alone: one player, one call at a time (the latency a player sees)
                alone = max(calls // 10, 50)
                started = time.perf_counter()
                for _ in range(alone):
                    await call(kind, 1)
                figures[f"{kind} alone us"] = (time.perf_counter() - started) / alone * 1e6
                # at once: every player calls, ``calls`` in all
                rounds = max(calls // users, 1)
                cpu, wall = time.process_time(), time.perf_counter()
                for _ in range(rounds):
                    await asyncio.gather(*(call(kind, u) for u in range(1, users + 1)))
                done = rounds * users
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                figures[f"{kind} per s"] = done / wall
                figures[f"{kind} cpu us"] = cpu / done * 1e6
        finally:
            await service.close()
    return figures


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run_tree(tree: Path, users: int, calls: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    argv = [sys.executable, __file__, "--users", str(users), "--calls", str(calls)]
    argv += ["--json", "--tree", str(tree)]
    done = subprocess.run(argv, env=env, cwd=tree, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def line(name: str, figures: dict[str, float], at: str) -> str:
    cells = [
        f"{kind} {figures[f'{kind} alone us']:.0f} us alone, {figures[f'{kind} per s']:,.0f}/s "
        f"at {figures[f'{kind} cpu us']:.0f} us CPU"
        for kind in KINDS
    ]
    return f"{name:<7} load {at}: " + "; ".join(cells)


def compare(before: Path, users: int, calls: int, rounds: int) -> None:
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for number in range(1, rounds + 1):
        print(f"round {number}")
        for name, tree in (("before", before), ("after", HERE)):
            at = load()
            figures = run_tree(tree, users, calls)
            runs[name].append(figures)
            print("  " + line(name, figures, at), flush=True)
    print(f"median of {rounds} (load average {load()} at the end)")
    for name, found in runs.items():
        median = {key: statistics.median(f[key] for f in found) for key in found[0]}
        print("  " + line(name, median, "-"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--calls", type=int, default=4000, help="calls of each kind at once")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", type=Path, help="a tree of the commit before, to compare")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)  # whose bot to measure
    args = parser.parse_args()
    if args.tree is not None:
        sys.path.insert(0, str(args.tree))
    if args.json:
        print(json.dumps(asyncio.run(measure(args.users, args.calls))))
    elif args.before is not None:
        compare(args.before, args.users, args.calls, args.rounds)
    else:
        at = load()
        print(line("now", asyncio.run(measure(args.users, args.calls)), at))


if __name__ == "__main__":
    main()
