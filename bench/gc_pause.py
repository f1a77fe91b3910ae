"""How long a full garbage collection pauses a bot process, with and without ``gc.freeze()``
after start-up (research/gc_pause.md).

    python bench/gc_pause.py [--players 1000] [--moves 20] [--collections 20]

Each measurement runs in a fresh subprocess, as the bot starts: it imports what ``reel
bot`` imports (discord.py, the service, both stores, the web board, the metrics), opens a
service over a new SQLite file, deals ``--players`` games and plays ``--moves`` commands
in each (the cache of games in memory, as a busy bot has it), and then, with ``--freeze``,
collects and freezes the heap (``gc.collect(); gc.freeze()``), as the bot does once ready.
After that it plays as many commands again (the objects a running bot makes after its
start) and times ``--collections`` full collections (``gc.collect(2)``). A full
collection visits every object the collector tracks, but not those frozen: the pause is
what every process pays each time Python decides a full collection is due.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def played(players: int, moves: int, folder: str) -> Any:
    """A service with ``players`` games of ``moves`` commands each in memory."""
    import bot.discord_bot.app  # what reel bot imports
    import bot.ops
    import bot.store.postgres
    import bot.web.app  # noqa: F401
    from bench.service import PLAIN
    from bot.service import GameService, MoveError, open_service

    service: GameService = await open_service(Path(folder) / "gc.db")
    service = GameService(service.store, cache_size=max(1024, players), new_player=PLAIN)
    rng = random.Random(1)
    for user in range(1, players + 1):
        await service.new_game(user, 1, rng.randint(1, 10**6))
    await play(service, players, moves, rng, MoveError)
    return service


async def play(service: Any, players: int, moves: int, rng: random.Random, error: Any) -> None:
    for _ in range(moves):
        for user in range(1, players + 1):
            choices = await service.move_choices(user)
            try:
                if choices:
                    await service.move(user, rng.choice(choices).text)
                else:
                    await service.new_game(user, 1, rng.randint(1, 10**6))
            except error:
                await service.new_game(user, 1, rng.randint(1, 10**6))


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="reel-gc-") as folder:
        service = await played(args.players, args.moves, folder)
        if args.freeze:
            gc.collect()
            gc.freeze()
        from bot.service import MoveError

        await play(service, args.players, args.moves, random.Random(2), MoveError)
        pauses = []
        for _ in range(args.collections):
            started = time.perf_counter()
            gc.collect(2)
            pauses.append(time.perf_counter() - started)
        tracked = len(gc.get_objects())
        frozen = gc.get_freeze_count()
        await service.close()
    return {"pauses": pauses, "tracked": tracked, "frozen": frozen}


def run(freeze: bool, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", "--players", str(args.players),
               "--moves", str(args.moves), "--collections", str(args.collections)]  # fmt: skip
    command += ["--freeze"] if freeze else []
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--collections", type=int, default=20)
    parser.add_argument("--freeze", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(measure(args))))
        return
    print(
        f"{args.players} games in memory, {args.moves} commands each before and after the"
        f" start-up's end; {args.collections} full collections timed; load average"
        f" {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    for freeze in (False, True):
        found = run(freeze, args)
        pauses = sorted(found["pauses"])
        print(
            f"{'gc.freeze() after start-up' if freeze else 'no freeze':<27}"
            f" full collection: median {statistics.median(pauses) * 1000:6.1f} ms,"
            f" max {pauses[-1] * 1000:6.1f} ms; objects tracked {found['tracked']:,},"
            f" frozen {found['frozen']:,}"
        )


if __name__ == "__main__":
    main()
