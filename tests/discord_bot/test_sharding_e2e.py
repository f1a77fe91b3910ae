"""The bot as a cluster of sharded processes, on the fake Discord (docs/scaling.md).

Two "processes" in one test: two ``ReelBot`` objects of shard count 2, one running
shard 0 and the other shard 1, each with its own ``GameService`` (and solver pool) over
one database file. The fake sends each server's interactions to the session of the
shard that owns it (Discord's rule: ``(guild_id >> 22) % shard_count``; DMs: shard 0).
The tests check that every interaction reaches exactly one process, the one of its
shard, and that a player who plays in servers of both shards plays one game: what one
process moved, the other sees at once, and a stale board is refused in either.

``test_process_e2e.py``'s way of running the real ``reel bot`` is used for two real
processes (REEL_SHARD_COUNT=2, REEL_SHARD_IDS=0 and 1) at the end of this file.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import secrets
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import discord
import pytest
from fake_discord import FakeDiscord, FakeGuild, FakeMessage, FakeUser, shard_of, snowflake
from harness import Clock, description, new_game, public_board

from bot.discord_bot.app import ReelBot, create_bot
from bot.service import GameService
from bot.store import Store
from tests.procs import descendants

ROOT = Path(__file__).resolve().parent.parent.parent
SHARDS = 2
START_TIMEOUT = 60.0  # a loaded machine imports slowly


def place_guilds(fake: FakeDiscord) -> tuple[FakeGuild, FakeGuild]:
    """The fake's servers: its first on shard 0, and a second one on shard 1 (of 2).
    Call before any bot connects (the ids are what READY tells)."""
    second = FakeGuild(snowflake(), "Second Club", snowflake(), members=list(fake.users.values()))
    fake.guilds.append(second)
    for guild, shard in ((fake.guild, 0), (second, 1)):
        if shard_of(guild.id, SHARDS) != shard:
            guild.id += 1 << 22  # the next millisecond: the other shard
    assert [shard_of(g.id, SHARDS) for g in fake.guilds] == [0, 1]
    return fake.guild, second


@dataclass
class Node:
    """One process of the cluster: its bot, its service, and the interactions it got."""

    bot: ReelBot
    service: GameService
    seen: list[int] = field(default_factory=list)


@dataclass
class Cluster:
    first: FakeGuild  # shard 0's
    second: FakeGuild  # shard 1's
    nodes: list[Node]
    db: Path


@pytest.fixture
async def cluster(
    fake_discord: FakeDiscord, tmp_path: Path, clock: Clock
) -> AsyncIterator[Cluster]:
    """Two bots, shards [0] and [1] of 2, each with its own service over one SQLite file
    marked shared (as ``reel bot`` marks it when it runs only some shards)."""
    first, second = place_guilds(fake_discord)
    db = tmp_path / "reel.db"
    nodes: list[Node] = []
    async with contextlib.AsyncExitStack() as started:
        for shard in range(SHARDS):
            store = await Store.open(db)
            store.shared = True
            service = GameService(store, clock=clock)
            bot = create_bot(
                service,
                dev_guild_id=None,
                sync_global=True,  # the commands in both servers and in DMs
                cooldown=None,
                guild_ready_timeout=0.1,
                shard_count=SHARDS,
                shard_ids=[shard],
            )
            node = Node(bot, service)

            async def seen(interaction: discord.Interaction, node: Node = node) -> None:
                node.seen.append(interaction.id)

            bot.add_listener(seen, "on_interaction")
            nodes.append(node)
            started.push_async_callback(service.close)  # after its bot closed
            await started.enter_async_context(fake_discord.running(bot))
        yield Cluster(first, second, nodes, db)


def version(board: FakeMessage) -> int:
    """The game version a board was drawn for (its buttons' ``reel:<action>:<user>:<v>``)."""
    return int(board.custom_ids[0].split(":")[3])


def button_id(board: FakeMessage, action: str) -> str:
    return next(c for c in board.custom_ids if c.startswith(f"reel:{action}:"))


async def test_each_server_is_served_by_the_process_of_its_shard_and_dms_by_shard_0(
    fake_discord: FakeDiscord, cluster: Cluster
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    zero, one = cluster.nodes
    before = set(fake.interactions)
    await new_game(fake, alice)
    await fake.slash(bob, "reel", sub="show", dm=True)  # a DM: shard 0's
    await fake.autocomplete(alice, "reel", "move", {"from": "r"}, focused="from")
    to_zero = set(fake.interactions) - before
    new = await fake.slash(bob, "reel", sub="new", options={"deal": "16"}, guild=cluster.second)
    board = await public_board(new)
    await fake.click(bob, board, button_id(board, "deal"))
    await public_board(await fake.slash(alice, "reel", sub="show", guild=cluster.second))
    to_one = set(fake.interactions) - before - to_zero
    assert len(to_zero) == len(to_one) == 3
    for result in fake.interactions.values():
        assert result.acknowledged  # answered, once (the fake fails a double answer)
    assert sorted(zero.seen) == sorted(to_zero)
    assert sorted(one.seen) == sorted(to_one)


async def test_a_game_moved_by_one_process_is_current_in_the_other(
    fake_discord: FakeDiscord, cluster: Cluster
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    board = await new_game(fake, alice)  # shard 0's process deals it (version v)
    start = version(board)
    # Shard 1's process plays on it: it reads the game shard 0's process wrote.
    there = await public_board(await fake.slash(alice, "reel", sub="deal", guild=cluster.second))
    assert version(there) == start + 1
    # Shard 0's process had the game in memory at v: it must not play on that.
    here = await public_board(await fake.slash(alice, "reel", sub="deal"))
    assert version(here) == start + 2
    shown = await public_board(await fake.slash(alice, "reel", sub="show", guild=cluster.second))
    assert version(shown) == start + 2
    assert description(shown).split("\n", 1)[1] == description(here).split("\n", 1)[1]
    # The board drawn by shard 1's process is stale now: a click on it changes nothing.
    stale = await fake.click(alice, there, button_id(there, "deal"))
    message = await stale.wait_message()
    assert message.ephemeral or version(message) == start + 2
    game = await cluster.nodes[1].service.store.load_game(alice.id)
    assert game is not None and game.version == start + 2
    assert game.moves.split(";").count("deal") == 2


async def test_interleaved_commands_in_both_shards_play_each_once_in_order(
    fake_discord: FakeDiscord, cluster: Cluster
) -> None:
    """Two players, each alternating at random between the two servers (two processes):
    every answer shows the version just after the previous one, and the stored game
    holds exactly the deals answered."""
    fake = fake_discord
    players = [fake.user("alice"), fake.user("bob")]
    rng = random.Random(34)
    expected = {p.id: version(await new_game(fake, p)) for p in players}
    deals = dict.fromkeys(expected, 0)
    for _ in range(16):
        player = rng.choice(players)
        where = rng.choice((cluster.first, cluster.second))
        command = rng.choice(("deal", "deal", "show"))
        board = await public_board(await fake.slash(player, "reel", sub=command, guild=where))
        if command == "deal":
            expected[player.id] += 1
            deals[player.id] += 1
        assert version(board) == expected[player.id], (command, where.name)
    for player in players:
        game = await cluster.nodes[0].service.store.load_game(player.id)
        assert game is not None and game.version == expected[player.id]
        assert game.moves.split(";").count("deal") == deals[player.id]
    assert {len(node.seen) > 0 for node in cluster.nodes} == {True}


# --------------------------------------------------------------------------- real processes


class ShardProcess:
    """``reel bot`` as a subprocess running one shard of 2, on the fake; its output
    (DEBUG: it names each gateway event it gets) goes to a file."""

    def __init__(
        self, fake: FakeDiscord, db: Path, shard: int, *, settings: dict[str, str] | None = None
    ) -> None:
        """``db``: the SQLite file (its folder keeps the log); ``settings``: more of the
        process's environment (``REEL_DATABASE_URL`` for PostgreSQL instead of the file)."""
        self.shard = shard
        self.log_path = db.parent / f"shard{shard}.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("REEL_", "DISCORD_"))}
        env.update(
            DISCORD_TOKEN="reel-test-token-" + secrets.token_hex(8),
            REEL_DISCORD_API=fake.api_base,
            REEL_DISCORD_GATEWAY=fake.gateway_url,
            REEL_SHARD_COUNT=str(SHARDS),
            REEL_SHARD_IDS=str(shard),
            REEL_LOG_LEVEL="DEBUG",
            PYTHONPATH=str(ROOT),
        )
        env.update(settings or {})
        command = [sys.executable, "-m", "bot.cli", "bot", "--sync-global"]
        if "REEL_DATABASE_URL" not in env:
            command += ["--db", str(db)]
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=db.parent,  # no .env there
                env=env,
            )

    @property
    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    async def ready(self) -> None:
        line = f"running shard(s) {self.shard} of {SHARDS}"
        deadline = time.monotonic() + START_TIMEOUT
        while line not in self.output:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"shard {self.shard} did not start:\n{self.output}")
            await asyncio.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                for pid in [self.proc.pid, *descendants(self.proc.pid)]:
                    with contextlib.suppress(OSError):
                        os.kill(pid, 9)
                self.proc.wait(timeout=10)


@pytest.fixture
async def shard_processes(
    fake_discord: FakeDiscord, tmp_path: Path
) -> AsyncIterator[list[ShardProcess]]:
    """Two real bot processes, shards 0 and 1 of 2, on one SQLite file; stopped at the end
    (the first is ready before the second starts: one of them creates the database)."""
    place_guilds(fake_discord)
    processes: list[ShardProcess] = []
    try:
        for shard in range(SHARDS):
            processes.append(ShardProcess(fake_discord, tmp_path / "reel.db", shard))
            await processes[-1].ready()
        yield processes
    finally:
        for process in processes:
            process.stop()


async def test_two_bot_processes_answer_interleaved_clicks_each_once_and_store_every_move(
    fake_discord: FakeDiscord, shard_processes: list[ShardProcess], tmp_path: Path
) -> None:
    fake = fake_discord
    first, second = fake.guilds
    players = [fake.user("alice"), fake.user("bob")]
    boards: dict[int, FakeMessage] = {}
    for player, guild in zip(players, (first, second), strict=True):
        new = await fake.slash(player, "reel", sub="new", options={"deal": "16"}, guild=guild)
        boards[player.id] = await public_board(new)
    start = {p.id: version(boards[p.id]) for p in players}
    rng = random.Random(3406)

    async def play(player: FakeUser, step: int) -> None:
        """A deal by the button of the newest board, or by /reel deal in a server picked
        at random: the same game whichever process serves it."""
        board = boards[player.id]
        if step % 2:
            result = await fake.click(player, board, button_id(board, "deal"), wait=False)
        else:
            guild = rng.choice((first, second))
            result = await fake.slash(player, "reel", sub="deal", guild=guild, wait=False)
        boards[player.id] = await public_board(result)

    for step in range(6):  # both players at once: the two processes side by side
        await asyncio.gather(*(play(player, step) for player in players))
    fake.assert_no_violations()  # each answered once, in time
    outputs = [process.output for process in shard_processes]
    for result in fake.interactions.values():
        guild_id = int(result.payload["guild_id"])
        owners = [shard for shard in range(SHARDS) if str(result.id) in outputs[shard]]
        assert owners == [shard_of(guild_id, SHARDS)], result.payload["data"]
    store = await Store.open(tmp_path / "reel.db")
    try:
        for player in players:
            assert version(boards[player.id]) == start[player.id] + 6
            game = await store.load_game(player.id)
            assert game is not None and game.version == start[player.id] + 6
            assert game.moves.split(";").count("deal") == 6
    finally:
        await store.close()
