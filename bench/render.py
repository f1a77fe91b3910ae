"""Picture board benchmark: how long a board takes to draw as a PNG, and how big it is.

    python bench/render.py [--positions N] [--seed S]

Positions are random games of deals 1-200 stopped at a random move count (a
fixed seed: two runs draw the same boards), for Virginia Reel and for a
12-pile game of the family (Three Up). Each board is drawn from scratch, as
on a cache miss (``bot.pictures.board_png``: the drawing and the PNG
encoding); the card faces, fonts and labels, made once per process, are warmed
first (``prepare``, and 20 boards).
Targets (issue 35): p99 under 20 ms and under 100 KB a board for Virginia
Reel, 30 ms for 12-pile games.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pictures import board_png, board_title
from bot.pictures.draw import prepare
from engine import Game
from engine.variant import THREE_UP, VIRGINIA_REEL, Variant

TARGETS = {"vr": (20.0, 100.0), "tu": (30.0, 100.0)}  # p99 ms, p99 KB


def positions(variant: Variant, count: int, rng: random.Random) -> list[Game]:
    """``count`` random positions: a deal of 1-200, played at random for 0-150 moves."""
    found = []
    for _ in range(count):
        game = Game.new(rng.randint(1, 200), variant)
        for _ in range(rng.randint(0, 150)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        found.append(game)
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(games: list[Game]) -> tuple[list[float], list[float]]:
    """Each board's drawing time (ms) and PNG size (KB)."""
    prepare(games[0].width)
    for game in games[:20]:  # the labels' masks too
        board_png(game, board_title(game.deal_number, game.move_count, game.variant))
    times, sizes = [], []
    for game in games:
        title = board_title(game.deal_number, game.move_count, game.variant)
        start = time.perf_counter()
        png = board_png(game, title)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png) / 1024)
    return times, sizes


def report(variant: Variant, times: list[float], sizes: list[float]) -> bool:
    """Print the figures against the targets; True if both are met."""
    limit_ms, limit_kb = TARGETS[variant.code]
    p99_ms, p99_kb = percentile(times, 0.99), percentile(sizes, 0.99)
    ok = p99_ms < limit_ms and p99_kb < limit_kb
    print(
        f"{variant.name} ({variant.piles_per_row} piles a row, {len(times)} boards): "
        f"time p50 {statistics.median(times):.1f} ms, p99 {p99_ms:.1f} ms "
        f"(target < {limit_ms:.0f}); PNG p50 {statistics.median(sizes):.1f} KB, "
        f"p99 {p99_kb:.1f} KB, max {max(sizes):.1f} KB (target < {limit_kb:.0f}): "
        + ("met" if ok else "MISSED")
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=400, help="boards of each game")
    parser.add_argument("--seed", type=int, default=35, help="seed of the random games")
    args = parser.parse_args(argv)
    met = True
    for variant in (VIRGINIA_REEL, THREE_UP):
        games = positions(variant, args.positions, random.Random(args.seed))
        met &= report(variant, *measure(games))
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
