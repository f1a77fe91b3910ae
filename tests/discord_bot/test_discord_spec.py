"""The requests the bot sends, held to Discord's OpenAPI spec (discord_spec.py).

The end-to-end tests check every request body the real bot sends (the fake Discord calls
the check); these tests check the check: that it refuses what Discord refuses (the race
option of 2^53 that made every command sync fail), allows exactly the documented
deviations, covers every route the fake serves with a body, and that our digest says
what Discord's spec says (against a copy, when ``REEL_DISCORD_SPEC`` names one).
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any, cast

import pytest
from discord_spec import ROUTES, SPEC_ENV, UNDESCRIBED, SpecCheck, digest_differences
from fake_discord import DiscordViolation, FakeDiscord
from test_fake_discord import TinyBot
from wire_digest import DIGEST

from bot.discord_bot.app import create_bot
from bot.discord_bot.replays import MAX_RACE
from bot.service import open_service

COMMANDS = "/applications/{app}/commands"
GUILD_COMMANDS = "/applications/{app}/guilds/{guild}/commands"
CALLBACK = "/interactions/{interaction}/{token}/callback"
FOLLOW_UP = "/webhooks/{app}/{token}"
EDIT = "/webhooks/{app}/{token}/messages/{message}"
CHANNEL_POST = "/channels/{channel}/messages"


@pytest.fixture(scope="module")
def digest() -> SpecCheck:
    return SpecCheck(DIGEST, "digest")


async def reel_payload(where: Path) -> dict[str, Any]:
    """/reel as the bot's command sync sends it: the group and every feature's subcommands,
    added by the bot's extensions (``setup_hook``)."""
    service = await open_service(where / "reel.db")
    try:
        async with create_bot(service, dev_guild_id=None) as bot:
            await bot.setup_hook()
            reel = bot.tree.get_command("reel")
            assert reel is not None
            return reel.to_dict(bot.tree)
    finally:
        await service.close()


def integer_option(maximum: int) -> dict[str, Any]:
    return {
        "name": "reel",
        "description": "Play",
        "options": [
            {
                "type": 1,
                "name": "replay",
                "description": "A replay",
                "options": [
                    {
                        "type": 4,
                        "name": "race",
                        "description": "A race",
                        "min_value": 1,
                        "max_value": maximum,
                    }
                ],
            }
        ],
    }


def test_an_integer_option_past_2_53_minus_1_is_refused(digest: SpecCheck) -> None:
    """The bound Discord refused every sync for (400 Invalid Form Body)."""
    [error] = digest.errors("PUT", COMMANDS, [integer_option(2**53)])
    assert error.path == (0, "options", 0, "options", 0, "max_value")
    assert "maximum" in error.message
    assert digest.errors("PUT", GUILD_COMMANDS, [integer_option(2**53)])
    assert digest.errors("PUT", COMMANDS, [integer_option(2**53 - 1)]) == []


async def test_the_reel_command_conforms_and_says_where_it_is_offered(
    digest: SpecCheck, tmp_path: Path
) -> None:
    payload = await reel_payload(tmp_path)
    assert digest.errors("PUT", COMMANDS, [payload]) == []
    assert "dm_permission" not in payload  # deprecated: contexts say it
    # installed to a server or to a player's account; in servers, the bot's DM, other
    # DMs and group DMs (issue 61)
    assert payload["integration_types"] == [0, 1]
    assert payload["contexts"] == [0, 1, 2]
    races = [o for o in payload["options"] if o["name"] == "replay"]
    [race] = [o for o in races[0]["options"] if o["name"] == "race"]
    assert race["max_value"] == MAX_RACE == 2**53 - 1


def test_each_bound_of_a_message_is_held(digest: SpecCheck) -> None:
    data: dict[str, Any] = {"content": "x" * 2000, "embeds": [{"title": "t" * 256}]}
    assert digest.errors("POST", CALLBACK, {"type": 4, "data": data}) == []
    too_long = {"type": 4, "data": {**data, "content": data["content"] + "x"}}
    [error] = digest.errors("POST", CALLBACK, too_long)
    assert error.path == ("data", "content") and "maxLength" in error.message
    rows = {"type": 7, "data": {"components": [{"type": 1, "components": []}]}}
    [error] = digest.errors("POST", CALLBACK, rows)  # an empty action row
    assert error.path == ("data", "components", 0, "components")
    choices = {"type": 8, "data": {"choices": [{"name": "a", "value": "b"}] * 26}}
    [error] = digest.errors("POST", CALLBACK, choices)
    assert error.path == ("data", "choices") and "maxItems" in error.message
    assert digest.errors("POST", CALLBACK, {"type": 3}), "no callback type 3"


def test_the_documented_deviations_are_allowed_exactly(digest: SpecCheck) -> None:
    command = {"name": "reel", "description": "Play", "default_member_permissions": "8"}
    assert digest.errors("PUT", COMMANDS, [command]) == []
    command["default_member_permissions"] = "eight"
    assert digest.errors("PUT", COMMANDS, [command])
    upload = {"content": "board", "attachments": [{"id": 0, "filename": "board.png"}]}
    assert digest.errors("POST", FOLLOW_UP, upload) == []
    assert digest.errors("PATCH", EDIT, {**upload, "attachments": [{"id": -1}]})
    assert digest.errors("PATCH", EDIT, {**upload, "attachments": [{"id": "x1"}]})
    dm = "/users/@me/channels"
    assert digest.errors("POST", dm, {"recipient_id": 4242}) == []
    assert digest.errors("POST", dm, {"recipient_id": "4242"}) == []
    [error] = digest.errors("POST", dm, {"recipient_id": -4})
    assert error.path == ("recipient_id",) and "fails type='string'" in error.message


async def test_every_route_the_fake_serves_with_a_body_is_checked() -> None:
    async with FakeDiscord() as fake:
        assert fake._runner is not None
        served = {
            (route.method, route.resource.canonical.removeprefix("/api/v10"))
            for app in [fake._runner.app]
            for route in app.router.routes()
            if route.method in ("POST", "PUT", "PATCH") and route.resource is not None
        }
    assert served == set(ROUTES) | set(UNDESCRIBED)


async def test_a_body_the_spec_refuses_is_answered_400_and_fails_the_test(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    with pytest.raises(DiscordViolation, match=r"openapi-spec.*embeds\[0\]\.description"):
        await fake.slash(fake.user("alice"), "t", sub="big", options={"size": 4097})
    [violation] = fake.take_violations()
    assert violation.rule == "openapi-spec"
    [(method, route, body)] = fake.spec_refusals
    assert (method, route) == ("POST", CALLBACK)
    assert cast(dict[str, Any], body)["type"] == 4
    assert [a.status for a in fake.attempts if a.path.endswith("/callback")] == [400]


def test_the_digest_check_finds_a_changed_bound() -> None:
    assert digest_differences(DIGEST, DIGEST) == []
    spec = copy.deepcopy(DIGEST)
    spec["components"]["schemas"]["Int53Type"]["maximum"] = 2**31 - 1
    spec["components"]["schemas"]["RichEmbedField"]["properties"]["name"]["minLength"] = 1
    del spec["components"]["schemas"]["StringSelectOptionForRequest"]
    found = digest_differences(DIGEST, spec)
    assert len(found) == 3
    assert any(p.startswith("Int53Type: maximum 9007199254740991 here") for p in found)
    assert any(p.startswith("RichEmbedField.name: minLength None here, 1") for p in found)
    assert "StringSelectOptionForRequest: not in the spec" in found


@pytest.mark.skipif(not os.environ.get(SPEC_ENV), reason=f"{SPEC_ENV} names no copy of the spec")
def test_the_digest_says_what_discord_s_spec_says() -> None:
    spec = json.loads(Path(os.environ[SPEC_ENV]).read_text())
    assert digest_differences(DIGEST, spec) == []
