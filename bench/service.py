"""Benchmark of the game service: many simulated users playing at once on a file database.

    python bench/service.py [--users 1000] [--seconds 10] [--think 1.0] [--seed 1]

Every simulated user plays random legal moves through ``GameService``: like a
player looking at the board, it knows the position (it keeps its own engine
copy of its game) and picks a random legal move, then sends it with
``service.move``; a stuck or won game is replaced by a new one. One command
is one service call that writes. With ``--ask-choices`` each move is preceded
by a ``move_choices`` read, as a player using Discord's autocomplete would
send (the pair then counts as one command). The database is a file in a
temporary directory, with the store's own settings (WAL,
``synchronous=FULL``: every command is fsynced before it returns).
Three runs, each ``--seconds`` long:

1. saturation: every user sends its next command as soon as the last one is
   answered. Gives the service's capacity in commands per second. Latency
   here is mostly queueing (N users waiting on one disk) and is shown only
   for completeness.
2. paced: every user thinks for a random time (exponential, mean ``--think``
   seconds) before each command, as players do. Gives the latency a player
   sees: p50 and p99 of the time from call to answer.
3. plain write: the same number of tasks, each writing one game row with a
   single UPDATE through a plain aiosqlite connection with the same pragmas.
   The ceiling any SQLite-backed service could reach on this disk.

It prints commands per second, the ratio of the service's capacity to the
plain write rate, latencies, and bytes stored per game (database file size
after a checkpoint divided by the games stored, current and finished; and the
average stored move list). Targets on the 2-core machine: ratio >= 0.5,
paced p99 < 20 ms, <= 2 KB per game.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import GameService, GameView
from bot.store import PRAGMAS, Store
from engine import Game, Status, parse_move


@dataclass
class Tally:
    commands: int = 0
    latencies: list[float] = field(default_factory=list)

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


ASK_CHOICES = False  # --ask-choices
WHAT_A_COMMAND_IS = "a move or a new game"


async def command(
    service: GameService,
    user_id: int,
    view: GameView,
    rng: random.Random,
    tally: Tally,
    boards: dict[int, Game],
) -> GameView:
    """One player command: a random legal move, or a new game when this one is over.

    ``boards`` holds each player's own copy of their game (what they see).
    """
    board = boards[user_id]
    start = time.perf_counter()
    if view.finished or view.status is not Status.PLAYING:
        deal = rng.randint(1, 10**9)
        view = await service.new_game(user_id, 1, deal)
        board = boards[user_id] = Game.new(deal)
    elif ASK_CHOICES:
        choices = await service.move_choices(user_id, limit=100)
        text = rng.choice(choices).text
        view = await service.move(user_id, text, view.version)
        board.play(parse_move(board, text))
    else:
        move = rng.choice(board.legal_moves())
        view = await service.move(user_id, str(move), view.version)
        board.play(move)
    tally.latencies.append(time.perf_counter() - start)
    tally.commands += 1
    return view


async def play(
    service: GameService,
    views: dict[int, GameView],
    boards: dict[int, Game],
    seconds: float,
    think: float,
    seed: int,
) -> tuple[Tally, float]:
    tally = Tally()
    deadline = time.perf_counter() + seconds

    async def user(user_id: int) -> None:
        rng = random.Random(seed * 1_000_003 + user_id)
        if think:
            await asyncio.sleep(rng.uniform(0, think))  # don't all start in step
        while time.perf_counter() < deadline:
            views[user_id] = await command(
                service, user_id, views[user_id], rng, tally, boards
            )
            if think:
                pause = rng.expovariate(1 / think)
                if time.perf_counter() + pause >= deadline:
                    return
                await asyncio.sleep(pause)

    start = time.perf_counter()
    await asyncio.gather(*(user(u) for u in views))
    return tally, min(seconds, time.perf_counter() - start) if think else (
        time.perf_counter() - start
    )


async def plain_writes(path: Path, users: int, seconds: float, row_moves: str) -> float:
    """Writes per second of one game row per write, single UPDATE, same pragmas."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        for pragma in PRAGMAS:
            await conn.execute(pragma)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS games (user_id INTEGER PRIMARY KEY, moves TEXT NOT NULL,"
            " version INTEGER NOT NULL, updated_at TEXT NOT NULL)"
        )
        await conn.executemany(
            "INSERT OR REPLACE INTO games VALUES (?, ?, 1, '')",
            [(u, row_moves) for u in range(users)],
        )
        writes = 0
        deadline = time.perf_counter() + seconds

        async def writer(user_id: int) -> None:
            nonlocal writes
            while time.perf_counter() < deadline:
                await conn.execute(
                    "UPDATE games SET moves = ?, version = version + 1, updated_at = ? "
                    "WHERE user_id = ?",
                    (row_moves, time.time(), user_id),
                )
                writes += 1

        start = time.perf_counter()
        await asyncio.gather(*(writer(u) for u in range(users)))
        return writes / (time.perf_counter() - start)
    finally:
        await conn.close()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


async def main(users: int, seconds: float, think: float, seed: int) -> None:
    with tempfile.TemporaryDirectory(prefix="reel-bench-") as tmp:
        db_path = Path(tmp) / "bench.db"
        store = await Store.open(db_path)
        service = GameService(store, cache_size=max(1024, users), rng=random.Random(seed))
        rng = random.Random(seed)
        views = {
            u: await service.new_game(u, 1, rng.randint(1, 10**9)) for u in range(1, users + 1)
        }
        boards = {u: Game.new(view.deal_number) for u, view in views.items()}
        # The disk's fsync rate drifts: measure the plain write just before and just after
        # the saturation run, and compare with their mean.
        plain_path = Path(tmp) / "plain.db"
        sample_moves = "R3 A5;" * 8  # about the average stored move list
        plain_before = await plain_writes(plain_path, users, seconds / 2, sample_moves)
        saturated, elapsed = await play(service, views, boards, seconds, 0.0, seed)
        capacity = saturated.commands / elapsed
        plain_after = await plain_writes(plain_path, users, seconds / 2, sample_moves)
        plain = (plain_before + plain_after) / 2
        paced, paced_elapsed = await play(service, views, boards, seconds, think, seed + 1)

        conn = store.connection
        await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        rows = list(
            await conn.execute_fetchall(
                "SELECT (SELECT count(*) FROM current_games),"
                " (SELECT count(*) FROM finished_games),"
                " (SELECT avg(length(moves)) FROM current_games),"
                " (SELECT max(length(moves)) FROM current_games),"
                " (SELECT avg(length(moves)) FROM finished_games)"
            )
        )
        current, finished, avg_moves, max_moves, avg_finished_moves = rows[0]
        await service.close()
        file_bytes = os.path.getsize(db_path)
        games = current + finished

    print(
        f"users {users}, {seconds:g} s a run, synchronous=FULL, "
        f"GIL switch interval {sys.getswitchinterval() * 1000:g} ms"
    )
    print(
        f"saturation: {saturated.commands} commands in {elapsed:.1f} s"
        f" = {capacity:,.0f} commands/s (each {WHAT_A_COMMAND_IS})"
    )
    print(
        f"  latency at saturation (queueing for one disk): p50 {ms(saturated.percentile(50))},"
        f" p99 {ms(saturated.percentile(99))}"
    )
    print(
        f"paced (think time mean {think:g} s): {paced.commands / paced_elapsed:,.0f} commands/s,"
        f" p50 {ms(paced.percentile(50))}, p99 {ms(paced.percentile(99))},"
        f" max {ms(max(paced.latencies, default=0.0))}"
    )
    print(
        f"plain aiosqlite write of one game row: {plain:,.0f} writes/s"
        f" (before {plain_before:,.0f}, after {plain_after:,.0f})"
    )
    print(f"ratio service / plain: {capacity / plain:.2f}")
    print(
        f"stored: {file_bytes:,} bytes file / {games:,} games ({current} current,"
        f" {finished} finished) = {file_bytes / max(1, games):,.0f} bytes per game"
    )
    print(
        f"  move lists: current avg {avg_moves or 0:.0f} B (max {max_moves or 0}),"
        f" finished avg {avg_finished_moves or 0:.0f} B"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, paced run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        help="sys.setswitchinterval in ms (default: Python's 5 ms)",
    )
    parser.add_argument(
        "--ask-choices",
        action="store_true",
        help="before each move, also read move_choices (as Discord's autocomplete does)",
    )
    args = parser.parse_args()
    ASK_CHOICES = args.ask_choices
    WHAT_A_COMMAND_IS = (
        "a move_choices read + a move, or a new game" if ASK_CHOICES else "a move or a new game"
    )
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval / 1000)
    asyncio.run(main(args.users, args.seconds, args.think, args.seed))
