"""Run by ``test_orphans.py`` as ``python orphan_player.py DB``: a service asks a hint (so
its solver pool is started), says ``ready``, then waits to be killed."""

from __future__ import annotations

import asyncio
import sys

from bot.service import GameService, Settings
from bot.store import Store


async def main(path: str) -> None:
    plain = Settings(auto_aces=False, winnable=False)
    service = GameService(await Store.open(path), solver_workers=2, new_player=plain)
    await service.new_game(1, None, 16)
    await service.hint(1)  # the pool's workers start here
    print("ready", flush=True)
    await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
