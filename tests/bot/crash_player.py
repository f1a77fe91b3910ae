"""Crash-test player: plays random legal moves through the service until it is killed.

Run by ``test_crash.py`` as ``python crash_player.py DB SEED USERS`` (DB a SQLite
file or a PostgreSQL URL). Several
players play at once. After each call returns, it prints one line
``USER VERSION RECORDED`` and flushes: the game version the call acknowledged,
and how many of this run's acknowledged calls recorded a finished game for the
user. The test SIGKILLs the process at a random moment and checks that every
acknowledged line is reflected in the database.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.service import GameService, GameView, NoGameError
from bot.store.open import open_store
from engine import Status


async def player(service: GameService, user_id: int, rng: random.Random) -> None:
    recorded = 0

    def ack(view: GameView) -> None:
        print(user_id, view.version, recorded, flush=True)

    # The moves this player counts are its own: no Aces played for it, no deal searched.
    await service.update_settings(user_id, auto_aces=False, winnable=False)
    try:
        view = await service.show(user_id)
    except NoGameError:
        view = await service.new_game(user_id, 100 + user_id)
    ack(view)
    while True:
        if view.finished:
            view = await service.new_game(user_id, 100 + user_id)
        elif view.status is Status.STUCK:
            roll = rng.random()
            if roll < 0.4:
                view = await service.undo(user_id, view.version)
            elif roll < 0.7:
                view = await service.resign(user_id, view.version)
                recorded += 1
            else:
                view = await service.new_game(user_id, None)
                recorded += 1  # the stuck game is recorded as lost
        elif view.can_undo and rng.random() < 0.1:
            view = await service.undo(user_id, view.version)
        elif rng.random() < 0.01:
            if view.move_count or view.undo_count:
                recorded += 1  # abandoned (a game never touched is not recorded)
            view = await service.new_game(user_id, 100 + user_id)
        else:
            choices = await service.move_choices(user_id, limit=100)
            view = await service.move(user_id, rng.choice(choices).text, view.version)
            if view.status is Status.WON:
                recorded += 1
        ack(view)


async def main(path: str, seed: int, users: int) -> None:
    store = await open_store(path)
    service = GameService(store, cache_size=max(1, users // 2), rng=random.Random(seed))
    print("ready", flush=True)
    await asyncio.gather(
        *(
            player(service, user_id, random.Random(seed * 1000 + user_id))
            for user_id in range(1, users + 1)
        )
    )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
