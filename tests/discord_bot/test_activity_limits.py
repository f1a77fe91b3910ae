"""The Activity's calls to Discord, throttled (bot/web/limits.py, discord_api.py, rooms/):
a flood of sign-ins or socket opens never becomes a flood of calls to Discord, Discord's
429 is honoured, and a bad instance id or body is a 400 that calls nobody."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest
from activity import room_page, served, sign_in
from fake_discord import FakeDiscord, FakeUser
from harness import Launch, Running

from bot.service import NoGameError
from bot.web.limits import ALL_SIGN_INS, SIGN_INS

TOKEN_PATH = "/oauth2/token"


def calls(fake: FakeDiscord, part: str) -> int:
    return sum(1 for attempt in fake.attempts if part in attempt.path)


@dataclass
class Board:
    """The bot running, its web board served beside it, alice in one Activity instance."""

    fake: FakeDiscord
    running: Running
    alice: FakeUser
    instance: str
    url: str
    http: aiohttp.ClientSession


@pytest.fixture
async def board(fake_discord: FakeDiscord, launch: Launch) -> AsyncIterator[Board]:
    alice = fake_discord.user("alice")
    running = await launch()
    instance = fake_discord.add_activity_instance([alice])
    async with served(fake_discord, running) as url, aiohttp.ClientSession() as http:
        yield Board(fake_discord, running, alice, instance, url, http)


async def test_a_flood_of_bogus_sign_ins_reaches_discord_a_burst_at_most(
    board: Board, caplog: pytest.LogCaptureFixture
) -> None:
    statuses = []
    began = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="bot.web.activity"):
        for n in range(40):
            body = {"code": f"bogus-code-{n}", "instance_id": board.instance}
            async with board.http.post(board.url + "api/token", json=body) as got:
                statuses.append(got.status)
    # the burst, and what the rate let through while the requests came (a slow machine)
    burst, per_second = SIGN_INS
    sent = calls(board.fake, TOKEN_PATH)
    assert burst <= sent <= burst + int(per_second * (time.monotonic() - began)) < 40
    assert statuses.count(429) == 40 - sent
    assert set(statuses[:burst]) == {400}  # Discord refused those codes
    lines = [r.getMessage() for r in caplog.records if "refused from" in r.getMessage()]
    assert not any("bogus-code" in line for line in lines)  # a code is a credential
    assert sum("sign-in refused from" in line for line in lines) == sent
    floods = [line for line in lines if "too many" in line]  # the flood, logged once
    assert len(floods) == 1 and "sign-ins refused from 127.0.0.1" in floods[0]


async def test_sign_ins_from_many_addresses_reach_discord_at_the_rate_of_all(
    board: Board,
) -> None:
    statuses = []
    began = time.monotonic()
    for n in range(ALL_SIGN_INS[0] + 15):  # each from its own address, behind a proxy
        body = {"code": f"bogus-{n}", "instance_id": board.instance}
        forwarded = {"X-Forwarded-For": f"198.51.100.{n + 1}"}
        async with board.http.post(board.url + "api/token", json=body, headers=forwarded) as got:
            statuses.append(got.status)
    # the burst, and what the rate let through while the requests came (a slow machine)
    burst, per_second = ALL_SIGN_INS
    allowed = burst + int(per_second * (time.monotonic() - began))
    assert burst <= calls(board.fake, TOKEN_PATH) <= allowed < len(statuses)
    assert statuses.count(429) == len(statuses) - calls(board.fake, TOKEN_PATH)


async def test_bad_bodies_and_instance_ids_are_400s_that_call_nobody(board: Board) -> None:
    http, url = board.http, board.url
    nested = b"[" * 2040  # deeper than json goes: RecursionError, a 500 before
    headers = {"Content-Type": "application/json"}
    async with http.post(url + "api/token", data=nested, headers=headers) as got:
        assert got.status == 400 and "not JSON" in (await got.json())["message"]
    for bad in ("..", ".", f"{board.instance}\n", "i-1/../../x", "é"):
        body = {"code": board.fake.authorization_code(board.alice), "instance_id": bad}
        async with http.post(url + "api/token", json=body) as got:
            answer = await got.json()
            assert got.status == 400 and "instance id" in answer["message"], (bad, answer)
    assert calls(board.fake, TOKEN_PATH) == 0 and calls(board.fake, "activity-instances") == 0


async def test_discords_retry_after_is_honoured_before_any_other_call(board: Board) -> None:
    board.fake.fail("POST", TOKEN_PATH, status=429, retry_after=30.0)
    for _ in range(3):
        body = {"code": board.fake.authorization_code(board.alice), "instance_id": board.instance}
        async with board.http.post(board.url + "api/token", json=body) as got:
            answer = await got.json()
            assert got.status == 503 and "wait" in answer["message"], answer
    assert calls(board.fake, TOKEN_PATH) == 1  # the 429; then nothing until Retry-After


async def test_sockets_re_entering_a_room_share_one_lookup_of_the_instance(
    board: Board,
) -> None:
    http, url, fake = board.http, board.url, board.fake
    signed = await sign_in(http, url, fake, board.alice, board.instance)
    before = calls(fake, "activity-instances")
    first = await room_page(http, url, signed.session)
    await first.next("room")
    pages = await asyncio.gather(*(room_page(http, url, signed.session) for _ in range(6)))
    for page in pages:
        await page.next("room")
    assert calls(fake, "activity-instances") - before == 1  # the first entry's check


async def test_a_session_ends_when_its_player_leaves_the_instance(board: Board) -> None:
    http, url, fake = board.http, board.url, board.fake
    bob = fake.user("bob")
    fake.activity_instances[board.instance]["users"] = [board.alice.id, bob.id]
    signed = await sign_in(http, url, fake, bob, board.instance)
    bearer = {"Authorization": f"Bearer {signed.session}"}
    async with http.get(url + "api/board", headers=bearer) as got:
        assert got.status == 200
    fake.activity_instances[board.instance]["users"] = [board.alice.id]  # bob left
    await asyncio.sleep(5.1)  # past the lookup's freshness (rooms/instances.py, LOOKUP_FRESH)
    async with http.get(url + "api/board", headers=bearer) as got:
        assert got.status == 403 and (await got.json())["code"] == "not-in-room"
    body = {"type": "new", "deal": 16}
    async with http.post(url + "api/play", json=body, headers=bearer) as got:
        assert got.status == 401  # the session ended: it plays nothing any more
    page = await room_page(http, url, signed.session)
    assert (await page.next("error"))["code"] == "no-session"
    with pytest.raises(NoGameError):  # nothing was played for bob
        await board.running.service.show(bob.id)
