"""The metrics and health pages (bot/ops/; docs/operations.md), read over HTTP after real
interactions over the fake Discord: a scripted session of commands, clicks, a refusal, an
autocomplete and a cooldown's refusal, each counted by command and outcome, timed to its
first answer and its end; the store's operations, the shard, the games in memory; and
``/healthz`` failing once the database is closed or the shard is down. The pages on a
port of their own, and on the web board's port."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from fake_discord import FakeDiscord
from harness import Launch, Running, new_game, public_board
from prometheus_client.parser import text_string_to_metric_families

from bot.discord_bot.app import ReelBot
from bot.discord_bot.metering import shards_of
from bot.ops import Health, add_routes, database_check, serving, shards_check
from bot.service import LOCAL_USER_ID
from bot.service.cooldown import Cooldown
from bot.web.local import start
from bot.web.sessions import Sessions

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def health_of(running: Running) -> Health:
    bot = running.bot
    return Health(
        {
            "database": database_check(running.service),
            "shards": shards_check(lambda: shards_of(bot)),
        }
    )


async def read(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status, await answer.text()


def parsed(text: str) -> Samples:
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture
async def pages(launch: Launch) -> AsyncIterator[tuple[Running, str]]:
    """A bot with the cooldown of 2 actions at once (slowly refilled), its metrics and
    health on a port of their own, as ``reel bot`` with REEL_METRICS_PORT serves them."""
    running = await launch(cooldown=Cooldown(rate=0.01, burst=2))
    bot = running.bot
    assert isinstance(bot, ReelBot)
    bot.metrics.watch_service(running.service, bot.cooldown)
    async with serving("127.0.0.1", 0, bot.metrics, health_of(running)) as port:
        yield running, f"http://127.0.0.1:{port}"


async def test_the_metrics_count_a_scripted_session_by_command_and_outcome(
    fake: FakeDiscord, pages: tuple[Running, str]
) -> None:
    _, base = pages
    alice, bob = fake.user("alice"), fake.user("bob")
    board = await new_game(fake, alice)  # 1: reel new, ok
    deal = next(c for c in board.custom_ids if c.startswith("reel:deal:"))
    await fake.click(alice, board, deal)  # 2: the Deal button, ok
    slowed = await fake.slash(alice, "reel", sub="show")  # 3: over the cooldown: slowed
    assert (await slowed.wait_message()).ephemeral
    await public_board(await fake.slash(bob, "reel", sub="new", options={"deal": "16"}))
    bad = await fake.slash(bob, "reel", sub="move", options={"from": "r1", "to": "r2"})
    assert (await bad.wait_message()).ephemeral  # an illegal move, refused privately
    choices = await fake.autocomplete(bob, "reel", "move", {"from": "r"}, focused="from")
    assert choices
    await asyncio.sleep(0.2)  # the last tasks end after their answers

    status, text = await read(f"{base}/metrics")
    assert status == 200
    found = parsed(text)
    counted = "reel_interactions_total"
    assert value(found, counted, command="reel new", outcome="ok") == 2
    assert value(found, counted, command="button reel:deal", outcome="ok") == 1
    assert value(found, counted, command="reel show", outcome="slowed") == 1
    assert value(found, counted, command="reel move", outcome="refused") == 1
    assert value(found, counted, command="autocomplete reel move", outcome="ok") == 1
    assert value(found, "reel_cooldown_refusals_total") == 1
    first = "reel_interaction_first_answer_seconds_count"
    whole = "reel_interaction_seconds_count"
    assert value(found, first, kind="command") == value(found, whole, kind="command") == 4
    assert value(found, first, kind="component") == 1
    assert value(found, first, kind="autocomplete") == 1
    in_time = "reel_interaction_first_answer_seconds_bucket"
    assert value(found, in_time, kind="command", le="3.0") == 4  # within Discord's deadline
    assert value(found, "reel_store_operation_seconds_count", outcome="ok") >= 4
    assert value(found, "reel_store_busy_refusals_total") == 0
    assert value(found, "reel_games_in_memory") == 2
    assert value(found, "reel_shard_up", shard="0") == 1
    assert ("reel_gateway_latency_seconds", frozenset({("shard", "0")})) in found
    assert value(found, "reel_solver_workers") >= 1
    assert value(found, "reel_solver_jobs_hung_total") == 0

    status, text = await read(f"{base}/healthz")
    assert status == 200, text
    assert '"status": "ok"' in text and '"database": "ok"' in text


async def test_health_fails_when_the_database_is_closed_and_when_the_shard_is_down(
    pages: tuple[Running, str],
) -> None:
    running, base = pages
    assert (await read(f"{base}/healthz"))[0] == 200
    await running.store.close()  # the database can no longer be reached
    status, text = await read(f"{base}/healthz")
    assert status == 503 and "unreachable" in text and '"shards": "ok' in text
    await running.bot.close()
    status, text = await read(f"{base}/healthz")
    assert status == 503 and "down" in text


async def test_without_a_port_of_their_own_the_pages_are_on_the_web_boards_port(
    pages: tuple[Running, str],
) -> None:
    running, _ = pages
    bot: Any = running.bot
    routes = lambda app, figures: add_routes(app, bot.metrics, health_of(running))  # noqa: E731
    runner = await start(
        running.service, Sessions(LOCAL_USER_ID), None, "127.0.0.1", 0, routes=routes
    )
    try:
        port = next(a[1] for a in runner.addresses if isinstance(a, tuple))
        status, text = await read(f"http://127.0.0.1:{port}/metrics")
        assert status == 200 and "reel_interactions_total" in text
        assert (await read(f"http://127.0.0.1:{port}/healthz"))[0] == 200
        assert (await read(f"http://127.0.0.1:{port}/"))[0] == 200  # the board still
    finally:
        await runner.cleanup()
