"""A cluster of two real ``reel bot`` processes, shards 0 and 1 of 2, on one PostgreSQL
database, driven over the fake Discord (docs/scaling.md): what one process changes reaches
the live messages the other holds.

- A watch posted by shard 0's process follows a game played through shard 1's: each move
  redraws it, and the game's end ends it.
- A race in a server of shard 0, one of whose racers plays with commands in a server of
  shard 1: that process plays his race game, and shard 0's process redraws the standings
  with his moves.
- Each process's ``/metrics`` (REEL_METRICS_PORT) counts what it answered and the changes
  it heard from the other, and its ``/healthz`` says it is healthy.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from fake_discord import FakeDiscord, FakeMessage, shard_of
from harness import description, public_board
from prometheus_client.parser import text_string_to_metric_families
from test_race_e2e import WINNING_DEAL, figures, opened, private_answer, standings, title
from test_sharding_e2e import SHARDS, ShardProcess, place_guilds
from test_watch_e2e import board_of, watched

from tests.bot.pg_server import PgServer

pytestmark = pytest.mark.postgres

FOLLOW_WITHIN = 15.0  # seconds: a watch redraws at most every 1.5 s; a loaded machine


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Node:
    """One process of the cluster and where its pages are."""

    def __init__(self, process: ShardProcess, metrics_port: int) -> None:
        self.process = process
        self.base = f"http://127.0.0.1:{metrics_port}"

    async def page(self, path: str) -> tuple[int, str]:
        async with aiohttp.ClientSession() as session, session.get(self.base + path) as answer:
            return answer.status, await answer.text()

    async def samples(self) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
        status, text = await self.page("/metrics")
        assert status == 200, text
        return {
            (s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples
        }


@pytest.fixture
async def cluster(
    fake_discord: FakeDiscord, tmp_path: Path, pg_server: PgServer
) -> AsyncIterator[list[Node]]:
    """Two ``reel bot`` processes on one PostgreSQL database, each with its metrics page."""
    place_guilds(fake_discord)
    url = await pg_server.fresh_database()
    nodes: list[Node] = []
    try:
        for shard in range(SHARDS):
            port = free_port()
            settings = {"REEL_DATABASE_URL": url, "REEL_METRICS_PORT": str(port)}
            process = ShardProcess(fake_discord, tmp_path / "reel.db", shard, settings=settings)
            nodes.append(Node(process, port))
            await process.ready()
        yield nodes
    finally:
        for node in nodes:
            node.process.stop()
        await pg_server.drop_database(url)


async def test_a_watch_held_by_one_process_follows_a_game_played_through_the_other(
    fake_discord: FakeDiscord, cluster: list[Node]
) -> None:
    fake = fake_discord
    second = fake.guilds[1]  # shard 1's server (the first, shard 0's, is the default)
    alice, bob = fake.user("alice"), fake.user("bob")
    new = await fake.slash(alice, "reel", sub="new", options={"deal": "16"}, guild=second)
    board = await public_board(new)  # dealt by shard 1's process
    watch = await watched(fake, bob, alice)  # in shard 0's server: its process holds it
    assert shard_of(watch.guild_id or 0, SHARDS) == 0
    assert board_of(watch) == board_of(board)
    for _ in range(3):  # Alice deals in shard 1's server; the watch follows each
        dealt = await fake.slash(alice, "reel", sub="deal", guild=second)
        board = await public_board(dealt)
        wanted = board_of(board)
        assert await fake.wait_until(
            lambda: board_of(watch) == wanted,  # noqa: B023 (awaited here, in this turn)
            timeout=FOLLOW_WITHIN,
        ), f"the watch shows\n{board_of(watch)}\nnot\n{wanted}"
    resign = await fake.slash(alice, "reel", sub="resign", guild=second)
    asked = await resign.wait_message()
    await fake.click(alice, asked, label="Resign")
    assert await fake.wait_until(
        lambda: "No longer live" in description(watch), timeout=FOLLOW_WITHIN
    )
    assert "The game is over." in description(watch)
    zero, one = cluster
    heard = await zero.samples()
    assert heard[("reel_changes_heard_total", frozenset({("kind", "game")}))] >= 4
    answered = await one.samples()
    key = ("reel_interactions_total", frozenset({("command", "reel deal"), ("outcome", "ok")}))
    assert answered[key] == 3
    for node in cluster:
        status, text = await node.page("/healthz")
        assert status == 200, text
        assert "objects of the start-up" in node.process.output  # gc.freeze() once ready


async def test_a_racer_playing_through_the_other_shard_is_drawn_in_the_race_standings(
    fake_discord: FakeDiscord, cluster: list[Node]
) -> None:
    fake = fake_discord
    second = fake.guilds[1]
    host, bob = fake.user("alice"), fake.user("bob")
    lobby = await opened(fake, host, deal=str(WINNING_DEAL), minutes=10)  # shard 0's server
    joined = await fake.click(bob, lobby, label="Join")
    await private_answer(joined)
    start = await fake.click(host, lobby, label="Start (host)")
    await private_answer(start)
    zero, one = cluster
    # Shard 1's process follows the race from the notifications shard 0's sent before
    # answering (opened, joined, its message posted, started): Bob's next command,
    # sent at once to shard 1's server, finds him racing.
    boards: list[FakeMessage] = []
    for _ in range(2):  # Bob's race game, through a command in shard 1's server
        answer = await private_answer(await fake.slash(bob, "reel", sub="deal", guild=second))
        assert title(answer).startswith("Race"), description(answer)
        boards.append(answer)
    moves, home = figures(boards[-1])

    def drawn() -> bool:
        row = standings(lobby).get(bob.id)
        return row is not None and row[1:3] == (home, moves)

    assert await fake.wait_until(drawn, timeout=FOLLOW_WITHIN), description(lobby)
    heard = await zero.samples()
    # Bob's two moves changed the race: heard at least once (two changes of one race
    # within the sender's gathering window go as one, the race read again once)
    assert heard[("reel_changes_heard_total", frozenset({("kind", "race")}))] >= 1
    answered = await one.samples()
    key = ("reel_interactions_total", frozenset({("command", "reel deal"), ("outcome", "ok")}))
    assert answered[key] == 2
    # Shard 0's process edits the standings (its REST calls are in its DEBUG log), never
    # shard 1's, which played Bob's moves.
    edited = f"PATCH {fake.api_base}/channels/{lobby.channel_id}/messages/{lobby.id}"
    assert edited in zero.process.output
    assert edited not in one.process.output
