"""The Discord Activity on the fake Discord, without a browser: launched from a chat
board's button and ``/reel board`` (callback type 12), refused privately where
Activities are off; the global sync keeping the Entry Point command; the sign-in
(``POST /api/token``) exchanging the code, naming the user and checking the instance;
and an instance's room racing one deal with the race's standings in the channel."""

from __future__ import annotations

import asyncio
import signal
import stat
from pathlib import Path

import aiohttp
from activity import (
    SECRET,
    message_where,
    race_board,
    race_line,
    race_title,
    room_page,
    room_where,
    served,
    sign_in,
)
from fake_discord import (
    ACTIVITIES_DISABLED,
    LAUNCH_ACTIVITY,
    PRIMARY_ENTRY_POINT,
    FakeDiscord,
    FakeGuild,
    shard_of,
    snowflake,
)
from harness import DEAL_NUMBER, Launch, description, new_game, private_text
from test_process_e2e import BotProcess
from test_web_e2e import free_port

from bot.config import shard_filter
from bot.discord_bot.app import EXIT_OK, ReelBot
from bot.discord_bot.launch import NOT_ENABLED
from bot.web.sessions import Sessions


async def test_play_on_the_board_under_a_chat_board_launches_the_activity(
    fake_discord: FakeDiscord, launch: Launch
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    await launch()
    board = await new_game(fake, alice)
    assert "activity:launch" in board.custom_ids
    clicked = await fake.click(alice, board, label="Play on the board")
    await clicked.wait_response()
    assert clicked.callback_type == LAUNCH_ACTIVITY and clicked.callback_data == {}
    instance = clicked.activity_instance_id
    assert instance is not None
    place = fake.activity_instances[instance]
    assert place["channel_id"] == fake.guild.channel_id and place["users"] == [alice.id]
    assert board.id not in [m.id for m in fake.channel_messages() if m.version > 1]  # untouched
    bob = fake.user("bob")  # anyone may open it from anyone's board
    other = await fake.click(bob, board, label="Play on the board")
    await other.wait_response()
    assert other.callback_type == LAUNCH_ACTIVITY


async def test_reel_board_launches_it_and_says_privately_when_activities_are_off(
    fake_discord: FakeDiscord, launch: Launch
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    await launch()
    launched = await fake.slash(alice, "reel", sub="board")
    await launched.wait_response()
    assert launched.callback_type == LAUNCH_ACTIVITY
    fake.activities_enabled = False
    refused = await fake.slash(alice, "reel", sub="board")  # its first answer refused:
    assert await fake.wait_until(lambda: refused.callback_type is not None)  # then a second
    assert await private_text(refused) == NOT_ENABLED
    assert [a.status for a in fake.attempts if "/callback" in a.path][-2:] == [400, 200]
    assert ACTIVITIES_DISABLED == 50234


async def test_the_global_sync_keeps_the_entry_point_command(
    fake_discord: FakeDiscord, launch: Launch
) -> None:
    fake = fake_discord
    # narrowed (to servers only) in the Developer Portal: the sync offers it where /reel is
    entry = fake.add_entry_point(integration_types=[0], contexts=[0])
    running = await launch(sync_global=True)  # reel bot --sync-global
    stored = {c["name"]: c for c in fake.global_commands}
    assert stored["launch"]["type"] == PRIMARY_ENTRY_POINT and stored["launch"]["id"] == entry["id"]
    assert stored["reel"]["type"] == 1
    for name in ("launch", "reel"):  # issue 61: installed to a server or an account, anywhere
        assert stored[name]["integration_types"] == [0, 1]
        assert stored[name]["contexts"] == [0, 1, 2]
    assert isinstance(running.bot, ReelBot)
    synced = await running.bot.tree.sync()  # what the owner's @bot sync does
    assert [c.name for c in synced] == ["reel"]
    assert {c["name"] for c in fake.global_commands} == {"launch", "reel"}
    assert [v for v in fake.take_violations() if v.rule == "entry-point"] == []


async def test_a_plain_sync_without_the_entry_point_is_refused_by_the_fake(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    fake.add_entry_point()
    async with aiohttp.ClientSession() as http:
        headers = {"Authorization": "Bot any-token"}
        url = f"{fake.api_base}/applications/{fake.application_id}/commands"
        body = [{"name": "reel", "description": "x", "type": 1}]
        async with http.put(url, json=body, headers=headers) as got:
            assert got.status == 400 and (await got.json())["code"] == 50240
    assert [v.rule for v in fake.take_violations()] == ["entry-point"]


async def test_sign_in_exchanges_the_code_and_opens_a_session_for_that_user(
    fake_discord: FakeDiscord, launch: Launch
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    running = await launch()
    instance = fake.add_activity_instance([alice])
    async with served(fake, running) as url, aiohttp.ClientSession() as http:
        async with http.get(url + "api/activity") as got:
            config = await got.json()
        assert config == {"client_id": str(fake.application_id), "mock": True, "local": False}
        signed = await sign_in(http, url, fake, alice, instance)
        assert signed.answer["user"] == {"id": str(alice.id), "name": "Alice"}
        assert fake.access_tokens[signed.answer["access_token"]] is alice
        session = Sessions(secret=SECRET).read(signed.session)
        assert session is not None and session.user_id == alice.id
        assert (session.instance_id, session.channel_id) == (instance, fake.guild.channel_id)
        page = await room_page(http, url, signed.session)
        room = await page.next("room")
        assert room["you"] == str(alice.id) and room["race"] is None
        assert (await page.next("no-game"))["type"] == "no-game"  # alone: their own game
        (board,) = await page.ask({"type": "new", "deal": str(DEAL_NUMBER)})
        assert board["board"]["deal"] == str(DEAL_NUMBER)  # text: deals go past 2**53
        assert (await running.service.show(alice.id)).version == board["version"]


async def test_sign_in_refuses_bad_requests_codes_and_strangers(
    fake_discord: FakeDiscord, launch: Launch
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    carol = fake.add_user("carol")
    running = await launch()
    instance = fake.add_activity_instance([alice, bob])
    async with served(fake, running) as url, aiohttp.ClientSession() as http:
        token = url + "api/token"
        cases = [
            ({"data": b"code=1"}, 400, "as JSON"),
            ({"json": {"instance_id": instance}}, 400, "needs the code"),
            ({"json": {"code": "x", "instance_id": instance, "user": 1}}, 400, "no field 'user'"),
            ({"json": {"code": "used-or-never-given", "instance_id": instance}}, 400, "not valid"),
            (
                {"json": {"code": fake.authorization_code(carol), "instance_id": instance}},
                403,
                "not in this Activity",
            ),
            (
                {"json": {"code": fake.authorization_code(alice), "instance_id": "i-nope"}},
                404,
                "does not know",
            ),
        ]
        for kwargs, status, words in cases:
            async with http.post(token, **kwargs) as got:  # type: ignore[arg-type]
                answer = await got.json()
            assert got.status == status and words in answer["message"], (kwargs, answer)
            assert "set-cookie" not in {h.lower() for h in got.headers}
        assert fake.client_secret not in str(fake.requests)
        forged = Sessions(secret=b"x" * 32).open(carol.id, instance, fake.guild.id, 1)
        page = await room_page(http, url, forged)
        assert (await page.next("error"))["code"] == "no-session"


async def test_a_session_of_a_user_who_left_the_instance_is_refused_its_room(
    fake_discord: FakeDiscord, launch: Launch
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    running = await launch()
    instance = fake.add_activity_instance([alice, bob])
    async with served(fake, running) as url, aiohttp.ClientSession() as http:
        signed = await sign_in(http, url, fake, bob, instance)
        fake.activity_instances[instance]["users"] = [alice.id]  # bob left the voice channel
        await asyncio.sleep(0)
        page = await room_page(http, url, signed.session)
        refusal = await page.next("error", timeout=10)
        assert refusal["code"] == "not-in-room"


async def test_two_players_in_an_instance_race_one_deal_to_the_end(
    fake_discord: FakeDiscord, launch: Launch
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    running = await launch()
    instance = fake.add_activity_instance([alice, bob])
    async with served(fake, running) as url, aiohttp.ClientSession() as http:
        first = await room_page(
            http, url, (await sign_in(http, url, fake, alice, instance)).session
        )
        second = await room_page(http, url, (await sign_in(http, url, fake, bob, instance)).session)
        lobby = await room_where(second, lambda r: r["race"] and len(r["race"]["racers"]) == 2)
        race = lobby["race"]
        race_id = int(race["id"])  # ids are text on the wire
        assert race["state"] == "lobby" and race["deal"] == str(DEAL_NUMBER)
        assert race["host"] == str(alice.id)
        posted = [m for m in fake.channel_messages() if race_title(m, race_id)]
        assert len(posted) == 1  # the race's standings in the channel
        claimed = [str(alice.id), str(bob.id), str(fake.add_user("carol").id)]
        await first.send({"type": "participants", "users": claimed, "id": "who"})
        room = await room_where(first, lambda r: r["id"] == "who")
        assert {p["id"] for p in room["people"]} == {str(alice.id), str(bob.id)}  # checked
        (bad,) = await first.ask({"type": "participants", "users": ["me"]})
        assert bad["code"] == "bad-frame" and "Discord ids" in bad["message"]
        (refusal,) = await second.ask({"type": "race-start"})
        assert refusal["code"] == "refused" and "Only the host" in refusal["message"]
        await first.ask({"type": "race-start"})
        boards = [await race_board(p) for p in (first, second)]
        assert {b["race"] for b in boards} == {race["id"]} and race["id"] == str(race_id)
        assert {b["board"]["deal"] for b in boards} == {str(DEAL_NUMBER)}
        (refusal,) = await first.ask({"type": "undo", "count": 2, "version": boards[0]["version"]})
        assert refusal["code"] == "racing" and "one move at a time" in refusal["message"]
        line = race_line()
        for page, board, user in zip((first, second), boards, (alice, bob), strict=True):
            version = board["version"]
            for move, position in line:
                kind = {"type": "deal"} if move.is_deal else {"type": "move", "move": str(move)}
                (played,) = await page.ask({**kind, "version": version})
                assert played["type"] == "board" and played["board"]["position"] == position
                version = played["version"]
                stored = await running.service.races.board(race_id, user.id)
                ended = 1 if stored.status == "won" and user is bob else 0  # the end's write
                assert stored.game.position == position
                assert stored.game.version == version + ended
            assert played["board"]["status"] == "won"
        final = await room_where(first, lambda r: r["race"]["state"] == "over")
        view = await running.service.races.standings(race_id)
        assert [(r["id"], r["place"], r["score"]) for r in final["race"]["racers"]] == [
            (str(r.user_id), r.place, r.score) for r in view.racers
        ]
        assert {r["status"] for r in final["race"]["racers"]} == {"won"}
        message = await message_where(fake, race_id, "final standings")
        for racer in view.racers:
            assert f"<@{racer.user_id}>" in description(message)


async def test_a_sharded_process_serves_the_activity_of_its_own_servers_only(
    fake_discord: FakeDiscord, launch: Launch
) -> None:
    """With the bot sharded over processes, the Activity of an instance is served by the
    process that runs its server's shard (its races, timers and standings are there):
    another process refuses the sign-in and the room, and opens nothing."""
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    other_id = fake.guild.id + (1 << 22)  # the next shard's
    other = FakeGuild(other_id, "Elsewhere", snowflake(), members=[alice, bob])
    fake.guilds.append(other)
    running = await launch()
    mine = shard_filter(SHARDS, [shard_of(fake.guild.id, SHARDS)])
    running.service.races.only(mine)  # as REEL_SHARD_IDS does
    assert not mine(other.id), "the test's two servers must be on different shards"
    here = fake.add_activity_instance([alice, bob])
    there = fake.add_activity_instance([alice, bob], guild=other)
    async with served(fake, running) as url, aiohttp.ClientSession() as http:
        code = fake.authorization_code(alice)
        async with http.post(url + "api/token", json={"code": code, "instance_id": there}) as got:
            answer = await got.json()
        assert got.status == 409 and answer["code"] == "other-shard"
        elsewhere = Sessions(secret=SECRET).open(alice.id, there, other.id, other.channel_id)
        page = await room_page(http, url, elsewhere)  # signed by another process
        refusal = await page.next("error", timeout=10)
        assert refusal["code"] == "not-in-room" and "another process" in refusal["message"]
        signed = await sign_in(http, url, fake, alice, here)
        page = await room_page(http, url, signed.session)
        assert (await page.next("room"))["instance"] == here
    assert await running.service.races.in_channel(other.channel_id) is None


SHARDS = 4


async def test_reel_bot_serves_the_activity_and_announces_its_race_in_the_channel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """``reel bot`` as a process with the Activity's settings: the sign-in against
    Discord, a room's race posted in the channel by the bot itself, the sessions' key
    made beside the database."""
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    port = free_port()
    settings = {
        "REEL_WEB_PORT": str(port),
        "DISCORD_CLIENT_ID": str(fake.application_id),
        "DISCORD_CLIENT_SECRET": fake.client_secret,
    }
    process = BotProcess(fake, tmp_path, settings)
    try:
        await process.connected()
        await process.logged(f"web board at http://127.0.0.1:{port}/")
        url = f"http://127.0.0.1:{port}/"
        instance = fake.add_activity_instance([alice, bob])
        async with aiohttp.ClientSession() as http:
            async with http.get(url + "api/activity") as got:
                assert (await got.json())["client_id"] == str(fake.application_id)
            pages = [
                await room_page(http, url, (await sign_in(http, url, fake, user, instance)).session)
                for user in (alice, bob)
            ]
            lobby = await room_where(
                pages[1], lambda r: r["race"] and len(r["race"]["racers"]) == 2
            )
            await message_where(fake, int(lobby["race"]["id"]), "lobby")
        assert stat.S_IMODE((tmp_path / "session.key").stat().st_mode) == 0o600
        since = process.signal(signal.SIGTERM)
        assert await process.exited(since, 10.0) == EXIT_OK
    finally:
        if process.proc.poll() is None:
            process.kill()
