"""Cross-process player: one of several service processes on one database, all playing
the same users' games at once. Run by ``test_cross_process.py`` as
``python cross_player.py URL SEED USERS COMMANDS``.

For each user, ``COMMANDS`` times: read the board (its version v), pick the move that every
process would pick at v (seeded by user and v: identical commands from every process), and
send it with v; now and then send it with v - 1 instead (a stale click). A stuck or finished
game is replaced by a new one, again with the version it was seen at. Each call that applied
prints ``APPLIED user before after kind text``; a refusal prints nothing, unless a stale
command applied (``WRONG ...``). ``done`` at the end.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.service import GameService, GameView, StaleVersionError
from bot.store.open import open_store
from engine import Status


def applied(user: int, before: int, view: GameView, kind: str, text: str) -> None:
    print("APPLIED", user, before, view.version, kind, text, flush=True)


async def one_command(service: GameService, user: int, rng: random.Random) -> None:
    view = await service.show(user)
    v = view.version
    if view.finished or view.status is Status.STUCK:
        try:
            new = await service.new_game(user, None, 100 + user, replaces_version=v)
        except StaleVersionError:
            return
        applied(user, v, new, "new", str(new.deal_number))
        return
    choices = await service.move_choices(user, limit=100)
    if not choices:
        return
    text = random.Random(user * 1_000_003 + v).choice(choices).text  # the same in every process
    if v > 1 and rng.random() < 0.2:
        try:
            wrong = await service.move(user, text, v - 1)
        except StaleVersionError:
            return
        print("WRONG", user, v - 1, wrong.version, text, flush=True)
        return
    try:
        moved = await service.move(user, text, v)
    except StaleVersionError:
        return
    applied(user, v, moved, "won" if moved.status is Status.WON else "move", text)


async def player(service: GameService, user: int, commands: int, rng: random.Random) -> None:
    for _ in range(commands):
        await one_command(service, user, rng)
        await asyncio.sleep(rng.random() * 0.002)  # let the processes interleave


async def main(url: str, seed: int, users: int, commands: int) -> None:
    store = await open_store(url)
    service = GameService(store, cache_size=max(1, users // 2), rng=random.Random(seed))
    try:
        await asyncio.gather(
            *(
                player(service, user, commands, random.Random(seed * 1000 + user))
                for user in range(1, users + 1)
            )
        )
    finally:
        await service.close()
    print("done", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
