"""Tests of the fake Discord's places (fake_places.py, issue 61): user installs, group DMs,
servers the bot is not in; each refusal Discord makes there, made by the fake.

Driven by a tiny real discord.py bot whose ``/a`` group is offered everywhere (installed to
a server or an account; in servers, the bot's DM, group DMs), as ``/reel`` is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fake_discord import EPHEMERAL, FakeDiscord, FakeMessage
from fake_places import (
    BOT_DM_CONTEXT,
    GROUP_DM,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    MISSING_ACCESS,
    PRIVATE_CHANNEL_CONTEXT,
    TOO_MANY_FOLLOWUPS,
    USE_EXTERNAL_APPS,
    Place,
)

EVERYWHERE_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
EVERYWHERE_CONTEXTS = app_commands.AppCommandContext(
    guild=True, dm_channel=True, private_channel=True
)


class AnywhereBot(commands.Bot):
    """``/a where`` (what discord.py made of the interaction), ``/a post`` (a channel
    message after the answer), ``/a many`` (follow-ups), each noting what Discord said."""

    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.1,
        )
        self.seen: list[dict[str, Any]] = []
        self.statuses: list[tuple[str, int, int]] = []  # (what, HTTP status, Discord code)
        group = app_commands.Group(
            name="a",
            description="Anywhere",
            allowed_installs=EVERYWHERE_INSTALLS,
            allowed_contexts=EVERYWHERE_CONTEXTS,
        )

        @group.command(name="where", description="Where am I")
        async def where(interaction: discord.Interaction) -> None:
            self.seen.append(
                {
                    "guild_id": interaction.guild_id,
                    "channel_type": getattr(interaction.channel, "type", None),
                    "guild_install": interaction.is_guild_integration(),
                    "user_install": interaction.is_user_integration(),
                    "context": interaction.context,
                }
            )
            await interaction.response.send_message("here")  # public, as sent

        @group.command(name="post", description="Answer, then post in the channel")
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("answered")
            channel = self.get_partial_messageable(interaction.channel_id or 0)
            await self.noting("post", channel.send("in the channel"))
            await self.noting("read", self.fetch_channel(interaction.channel_id or 0))
            original = await interaction.original_response()
            edit = channel.get_partial_message(original.id).edit(content="edited by channel")
            await self.noting("edit", edit)
            await interaction.edit_original_response(content="edited by the webhook")

        @group.command(name="many", description="Think, then answer in follow-ups")
        async def many(interaction: discord.Interaction, count: int) -> None:
            await interaction.response.defer(thinking=True)
            for n in range(count):
                await self.noting(f"follow-up {n + 1}", interaction.followup.send(f"#{n + 1}"))

        self.tree.add_command(group)

    async def noting(self, what: str, call: Any) -> None:
        try:
            await call
        except discord.HTTPException as exc:
            self.statuses.append((what, exc.status, exc.code))
        else:
            self.statuses.append((what, 200, 0))

    async def setup_hook(self) -> None:
        await self.tree.sync()  # global: offered in DMs and other servers


def edited(message: FakeMessage, content: str) -> Callable[[], bool]:
    return lambda: message.content == content


@pytest.fixture
async def bot(fake_discord: FakeDiscord, start_bot: Any) -> AnywhereBot:
    started = await start_bot(AnywhereBot())
    assert isinstance(started, AnywhereBot)
    return started


async def test_each_place_says_where_it_is(fake_discord: FakeDiscord, bot: AnywhereBot) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    places = [
        fake.server(),
        fake.foreign_server(),
        fake.group_dm(alice, bob),
        fake.bot_dm(alice),
        fake.bot_dm(alice, installs=(GUILD_INSTALL,)),
    ]
    results = [await fake.slash(alice, "a", sub="where", place=place) for place in places]
    owners = [r.payload["authorizing_integration_owners"] for r in results]
    assert owners == [
        {"0": str(fake.guild.id)},
        {"1": str(alice.id)},
        {"1": str(alice.id)},
        {"1": str(alice.id)},
        {"0": "0"},  # a server's install used in the bot's DM
    ]
    contexts = [r.payload["context"] for r in results]
    assert (
        contexts == [GUILD_CONTEXT, GUILD_CONTEXT, PRIVATE_CHANNEL_CONTEXT] + [BOT_DM_CONTEXT] * 2
    )
    assert [r.payload["channel"]["type"] for r in results] == [0, 0, GROUP_DM, 1, 1]
    foreign = results[1].payload
    assert foreign["guild"] == {"id": foreign["guild_id"], "locale": "en-US", "features": []}
    assert int(foreign["member"]["permissions"]) & USE_EXTERNAL_APPS
    # discord.py reads them so: a partial guild, a group channel, the owners
    seen = bot.seen
    assert seen[1]["guild_id"] == int(foreign["guild_id"]) and seen[1]["user_install"]
    assert not seen[1]["guild_install"]
    assert seen[2]["channel_type"] == discord.ChannelType.group and seen[2]["guild_id"] is None
    assert seen[0]["guild_install"] and not seen[0]["user_install"]
    for result in results:  # public as sent: Use External Apps is on
        assert not (await result.wait_message()).ephemeral


async def test_a_user_install_is_refused_the_channel_where_the_bot_is_not_a_member(
    fake_discord: FakeDiscord, bot: AnywhereBot
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    for place in (fake.foreign_server(), fake.group_dm(alice, bob)):
        bot.statuses.clear()
        result = await fake.slash(alice, "a", sub="post", place=place)
        await fake.wait_until(lambda: len(bot.statuses) == 3)
        refused = ("post", 403, MISSING_ACCESS), ("read", 403, MISSING_ACCESS)
        assert bot.statuses == [*refused, ("edit", 403, MISSING_ACCESS)]
        answer = await result.wait_message()
        await fake.wait_until(edited(answer, "edited by the webhook"))
        assert answer.content == "edited by the webhook"  # its own webhook works there
        assert fake.channel_messages(place.channel_id) == [answer]
        violations = fake.take_violations()
        assert [v.rule for v in violations] == ["missing-access"] * 3
        assert all("is not a member" in v.detail for v in violations)


async def test_where_the_bot_is_the_channel_is_open_as_before(
    fake_discord: FakeDiscord, bot: AnywhereBot
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    for place in (fake.server(), fake.server(user_install=True), fake.bot_dm(alice)):
        bot.statuses.clear()
        await fake.slash(alice, "a", sub="post", place=place)
        await fake.wait_until(lambda: len(bot.statuses) == 3)
        assert [status for _, status, _ in bot.statuses] == [200, 200, 200]
    assert fake.take_violations() == []


async def test_a_sixth_follow_up_is_refused_where_only_a_user_install_answers(
    fake_discord: FakeDiscord, bot: AnywhereBot
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    for place in (fake.foreign_server(), fake.group_dm(alice, bob)):
        bot.statuses.clear()
        result = await fake.slash(alice, "a", sub="many", options={"count": 6}, place=place)
        await fake.wait_until(lambda: len(bot.statuses) == 6)
        assert bot.statuses[:5] == [(f"follow-up {n}", 200, 0) for n in range(1, 6)]
        assert bot.statuses[5] == ("follow-up 6", 400, TOO_MANY_FOLLOWUPS)
        assert len(result.followups) == 5
        [violation] = fake.take_violations()
        assert violation.rule == "followup-limit" and violation.interaction_id == result.id
    # where the game is installed to the server, or in the bot's DM: no such limit
    for where in (fake.server(user_install=True), fake.bot_dm(alice)):
        bot.statuses.clear()
        await fake.slash(alice, "a", sub="many", options={"count": 6}, place=where)
        await fake.wait_until(lambda: len(bot.statuses) == 6)
        assert [status for _, status, _ in bot.statuses] == [200] * 6


@pytest.mark.parametrize("kind", ["foreign server", "group DM"])
async def test_without_use_external_apps_a_public_answer_is_made_private(
    fake_discord: FakeDiscord, bot: AnywhereBot, kind: str
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    place: Place = (
        fake.foreign_server(external_apps=False)
        if kind == "foreign server"
        else fake.group_dm(alice, bob, external_apps=False)
    )
    envelope = place.envelope(alice)
    assert not int(envelope["channel"]["permissions"]) & USE_EXTERNAL_APPS
    result = await fake.slash(alice, "a", sub="where", place=place)
    message = await result.wait_message()
    assert message.ephemeral and message.made_ephemeral
    assert message.flags & EPHEMERAL
    deferred = await fake.slash(alice, "a", sub="many", options={"count": 2}, place=place)
    first, second = await deferred.wait_followups(2)
    assert first.made_ephemeral and second.made_ephemeral  # the "thinking" one, then a new one
    # the same channel, the permission on: public again
    again = await fake.slash(alice, "a", sub="where", place=place.with_external_apps(True))
    assert not (await again.wait_message()).ephemeral


async def test_a_guild_install_s_answer_is_never_made_private(
    fake_discord: FakeDiscord, bot: AnywhereBot
) -> None:
    fake = fake_discord
    place = fake.server(user_install=True).with_external_apps(False)
    result = await fake.slash(fake.user("alice"), "a", sub="where", place=place)
    message = await result.wait_message()
    assert not message.ephemeral and not message.made_ephemeral


async def test_a_command_is_offered_only_where_it_declares(
    fake_discord: FakeDiscord, bot: AnywhereBot
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    [command] = fake.global_commands
    command["integration_types"], command["contexts"] = [GUILD_INSTALL], [GUILD_CONTEXT]
    for place in (fake.foreign_server(), fake.group_dm(alice, bob), fake.bot_dm(alice)):
        with pytest.raises(LookupError, match="no /a command is offered"):
            await fake.slash(alice, "a", sub="where", place=place)
    with pytest.raises(LookupError, match="bob is not in"):
        await fake.slash(bob, "a", sub="where", place=fake.bot_dm(alice))


async def test_an_answer_in_a_group_dm_is_there_and_its_channel_route_refused(
    fake_discord: FakeDiscord, bot: AnywhereBot
) -> None:
    """An answer the bot sent in a place is in its channel, owned by the player's
    install; reading it through the channel's routes stays refused."""
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    place = fake.group_dm(alice, bob)
    result = await fake.slash(alice, "a", sub="where", place=place)
    message = await result.wait_message()
    assert message.channel_id == place.channel_id and message.guild_id is None
    metadata = message.interaction_metadata
    assert metadata is not None
    assert metadata["authorizing_integration_owners"] == {"1": str(alice.id)}
    async with aiohttp.ClientSession() as http:
        url = f"{fake.api_base}/channels/{place.channel_id}/messages/{message.id}"
        async with http.get(url, headers={"Authorization": "Bot any-token"}) as got:
            assert got.status == 403 and (await got.json())["code"] == MISSING_ACCESS
    assert [v.rule for v in fake.take_violations()] == ["missing-access"]
