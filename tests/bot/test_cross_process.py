"""Several service processes on one PostgreSQL database, or one SQLite file, hammering the
same users with identical and stale commands (``cross_player.py``): every move is applied
once, by exactly one process, at the version it was made against; no stale command
applies; each game ends equal to its log of applied moves, and each finished game is
recorded once. On SQLite the processes are not told each other's writes: each sees them
by looking (``bot/service/outside.py``), and its board is read at the stored version."""

from __future__ import annotations

import asyncio
import os
import sys
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store.open import open_store
from engine import Game, parse_move, render

PLAYER = Path(__file__).with_name("cross_player.py")
ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 3
USERS = 4
COMMANDS = 80


async def run_players(url: str) -> list[list[str]]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    pipe = asyncio.subprocess.PIPE
    procs = []
    for seed in range(1, PROCESSES + 1):
        argv = [str(PLAYER), url, str(seed), str(USERS), str(COMMANDS)]
        procs.append(
            await asyncio.create_subprocess_exec(
                sys.executable, *argv, stdout=pipe, stderr=pipe, env=env, cwd=ROOT
            )
        )
    outputs = []
    for proc in procs:
        out, err = await proc.communicate()
        assert proc.returncode == 0, err.decode()
        lines = out.decode().splitlines()
        assert lines[-1] == "done", err.decode()
        outputs.append(lines[:-1])
    return outputs


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
async def test_processes_sharing_a_database_apply_each_move_once(db_target: str) -> None:
    setup = GameService(await open_store(db_target))
    try:
        for user in range(1, USERS + 1):
            await setup.update_settings(user, auto_aces=False, winnable=False)
            await setup.new_game(user, None, 100 + user)
    finally:
        await setup.close()

    outputs = await run_players(db_target)
    assert not [line for out in outputs for line in out if line.startswith("WRONG")]
    log: dict[int, list[tuple[int, int, str, str]]] = defaultdict(list)
    by_process: Counter[int] = Counter()
    for number, out in enumerate(outputs):
        for line in out:
            _, user_id, before, after, kind, text = line.split(" ", 5)
            log[int(user_id)].append((int(before), int(after), kind, text))
            by_process[number] += 1
    assert len(by_process) == PROCESSES  # every process applied some of the moves

    service = GameService(await open_store(db_target))
    try:
        for user in range(1, USERS + 1):
            entries = sorted(log[user])
            befores = [before for before, *_ in entries]
            assert len(set(befores)) == len(befores), "a version was applied twice"
            assert befores == list(range(1, 1 + len(befores))), "versions applied in a chain"
            assert all(after == before + 1 for before, after, *_ in entries)
            view = await service.show(user)
            assert view.version == 1 + len(entries)
            # the game now is the applied moves since its last new game, replayed
            since = max((i for i, e in enumerate(entries) if e[2] == "new"), default=-1)
            game = Game.new(view.deal_number)
            for *_, text in entries[since + 1 :]:
                game.play(parse_move(game, text))
            assert view.board == render(game), user
            recorded = await service.store.finished_games(user)
            # one record per game ended: a win, or a stuck game replaced by a new one
            ended = sum(kind in ("won", "new") for _, _, kind, _ in entries)
            won_then_new = sum(a[2] == "won" and b[2] == "new" for a, b in pairwise(entries))
            assert len(recorded) == ended - won_then_new, user
    finally:
        await service.close()
