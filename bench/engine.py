"""Engine benchmark: legal-move generations and random full playouts per second, one core.

    python bench/engine.py [--seconds N] [--seed S]

A playout starts from a new deal and plays uniformly random legal moves until
the game is won or stuck. Deals and moves come from a fixed seed, so two runs
play the same games; only the timings differ.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import MAX_DEAL, Game, Status


def bench_generation(seconds: float, rng: random.Random) -> tuple[int, float]:
    """Move generations over positions of random games: (calls, elapsed seconds).

    ``legal_moves()`` remembers its answer until the next play or undo, so this
    calls the generator behind it, ``_generate()``, to time the real work.
    """
    positions: list[Game] = []
    while len(positions) < 200:
        game = Game.new(rng.randint(1, MAX_DEAL))
        while moves := game.legal_moves():
            positions.append(game.copy())
            game.play(rng.choice(moves))
    calls = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for game in positions:
            game._generate()
        calls += len(positions)
    return calls, elapsed


def bench_playouts(seconds: float, rng: random.Random) -> tuple[int, int, int, float]:
    """Random playouts: (playouts, moves played, games won, elapsed seconds)."""
    playouts = moves_played = won = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        game = Game.new(rng.randint(1, MAX_DEAL))
        while moves := game.legal_moves():
            game.play(rng.choice(moves))
            moves_played += 1
        playouts += 1
        won += game.status is Status.WON
    return playouts, moves_played, won, elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each measure")
    parser.add_argument("--seed", type=int, default=2024, help="seed for deals and moves")
    args = parser.parse_args(argv)
    calls, elapsed = bench_generation(args.seconds, random.Random(args.seed))
    print(f"legal-move generations: {calls / elapsed:,.0f}/s ({calls:,} in {elapsed:.1f} s)")
    playouts, moves, won, elapsed = bench_playouts(args.seconds, random.Random(args.seed))
    print(f"random playouts:        {playouts / elapsed:,.0f}/s ({playouts:,} in {elapsed:.1f} s)")
    print(f"moves per playout:      {moves / max(playouts, 1):.1f} (mean); won {won}")


if __name__ == "__main__":
    main()
