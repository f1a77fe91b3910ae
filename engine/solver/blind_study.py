"""Blind play: whole games played by the blind player, and ``reel study --blind``.

``play_blind(game)`` plays a game from its position to a win or a dead end with
``blind_move`` (blind.py): every move chosen without seeing the stock's order, never
back to a position already reached (a player going round in circles has given up). The
study plays each deal of a range so, side by side in worker processes, and reports the
share won with a 95% Wilson interval: how often the game is won by a player who plays
well but cannot see the stock, where ``reel study`` says how many deals *can* be won.

Each game's budget is fixed before it starts (``samples`` stock orders a decision, each
searched within ``max_nodes`` positions), never a time: the same deal and seed give the
same game on any machine, fast or slow, compiled or pure Python.
"""

from __future__ import annotations

import contextlib
import csv
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any, Final, TextIO

from ..game import Game
from ..notation import format_position
from ..variant import variant_by_code
from .blind import DEFAULT_NODES, DEFAULT_SAMPLES, blind_choice

MAX_MOVES: Final = 3_000  # far beyond any game (a won game of three packs is ~170 moves)
CSV_HEADER: Final = ["deal", "result", "score", "moves", "searches", "seconds", "slowest"]


@dataclass(frozen=True, slots=True)
class BlindGame:
    """A game played blind: won or not, the cards home, the moves played, the decisions
    that needed a search, the seconds it took and the slowest move's."""

    deal: int
    won: bool
    score: int
    moves: int
    searches: int
    seconds: float
    slowest: float

    def row(self) -> list[object]:
        return [
            self.deal,
            "won" if self.won else "lost",
            self.score,
            self.moves,
            self.searches,
            round(self.seconds, 3),
            round(self.slowest, 4),
        ]


def play_blind(
    game: Game,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    max_nodes: int = DEFAULT_NODES,
) -> BlindGame:
    """Play ``game`` (changed in place) blind to a win or a dead end (no legal move, or
    none that does not go back to a position reached before)."""
    assert game.deal_number is not None
    seen = {format_position(game)}
    searches, slowest, started = 0, 0.0, time.perf_counter()
    while not game.is_won() and len(game.history) < MAX_MOVES:
        before = time.perf_counter()
        try:
            choice = blind_choice(game, seed=seed, samples=samples, max_nodes=max_nodes, avoid=seen)
        except ValueError:  # no move left, or only moves back
            break
        slowest = max(slowest, time.perf_counter() - before)
        searches += choice.worlds > 0
        game.play(choice.move)
        seen.add(format_position(game))
    seconds = time.perf_counter() - started
    return BlindGame(
        game.deal_number, game.is_won(), game.score, len(game.history), searches, seconds,
        slowest,
    )  # fmt: skip


# A deal for a worker: its number, the game's code, the seed, the samples, the node budget.
BlindJob = tuple[int, str, int, int, int]


def play_one(job: BlindJob) -> BlindGame:
    deal, code, seed, samples, max_nodes = job
    game = Game.new(deal, variant_by_code(code))
    return play_blind(game, seed=seed, samples=samples, max_nodes=max_nodes)


def play_all(jobs: Sequence[BlindJob], workers: int) -> Iterator[BlindGame]:
    """The games of ``jobs`` played, in ``workers`` processes (in the order they end)."""
    if workers <= 1:
        yield from map(play_one, jobs)
        return
    with quiet_pool(workers) as pool:
        yield from pool.imap_unordered(play_one, jobs, chunksize=1)


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def quiet_pool(workers: int) -> Iterator[Any]:
    """A pool of ``workers`` processes that leave Ctrl-C to this one, which stops them
    (``Pool.terminate``) instead of each printing a KeyboardInterrupt traceback. Ctrl-C is
    blocked while they are forked, so none can get it before it ignores it; one that came
    meanwhile reaches this process once the pool is made."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool = Pool(workers, initializer=_quiet_worker)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
    with pool:
        yield pool


def run_blind_study(
    deals: range,
    code: str,
    *,
    csv_path: Path,
    workers: int,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    max_nodes: int = DEFAULT_NODES,
    quiet: bool = False,
) -> list[BlindGame]:
    """Play every deal of ``deals`` blind; the games, in deal order. Each game's row goes
    to ``csv_path`` + ``.part`` as it ends (a study stopped halfway keeps them there);
    the finished study writes ``csv_path`` and removes the part."""
    part = csv_path.with_name(csv_path.name + ".part")
    games: list[BlindGame] = []
    started = time.monotonic()
    jobs = [(deal, code, seed, samples, max_nodes) for deal in deals]
    with part.open("w", newline="", encoding="utf-8") as partial:
        writer = csv.writer(partial)
        writer.writerow(CSV_HEADER)
        for done, played in enumerate(play_all(jobs, workers), 1):
            games.append(played)
            writer.writerow(played.row())
            partial.flush()
            if not quiet:
                print(_progress(done, len(jobs), games, started), end="", file=sys.stderr)
    if not quiet:
        print(file=sys.stderr)
    games.sort(key=lambda g: g.deal)
    with csv_path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(CSV_HEADER)
        writer.writerows(g.row() for g in games)
    part.unlink()
    return games


def _progress(done: int, total: int, games: list[BlindGame], started: float) -> str:
    won = sum(g.won for g in games)
    elapsed = time.monotonic() - started
    eta = elapsed / done * (total - done)
    return f"\r{done}/{total} played  won {won}  lost {done - won}  eta {eta:,.0f} s "


def summary_lines(games: Sequence[BlindGame], wilson: tuple[float, float]) -> list[str]:
    """The study's result: the games won, the share with its interval, and the speed."""
    n = len(games)
    won = sum(g.won for g in games)
    low, high = wilson
    moves = sorted(g.slowest for g in games)
    lengths = sorted(g.seconds for g in games)
    return [
        f"won {won}, lost {n - won}",
        f"won blind: {won / n:.1%}; 95% Wilson interval {low:.1%} to {high:.1%}",
        f"seconds a game: median {lengths[n // 2]:.1f}, slowest {lengths[-1]:.1f}; "
        f"slowest move {moves[-1]:.2f} s",
    ]


def write_summary(lines: Sequence[str], out: TextIO) -> None:
    for line in lines:
        print(line, file=out)
