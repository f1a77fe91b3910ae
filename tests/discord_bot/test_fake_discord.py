"""Tests of the fake Discord itself, driven by a tiny real discord.py bot defined here."""

from __future__ import annotations

import asyncio
import itertools
import re
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fake_discord import (
    ABANDONED,
    CALLBACK_PATH,
    DEFERRED_CHANNEL_MESSAGE,
    FOLLOWUP_PATH,
    UPDATE_MESSAGE,
    DiscordViolation,
    FakeDiscord,
    FakeMessage,
    command_errors,
    component_errors,
    embed_errors,
    message_errors,
)

FRUITS = ["apple", "apricot", "banana", "blueberry", "cherry"]


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"t:count:(?P<n>\d+)"):
    """A button that counts its clicks in its custom_id, so it works after a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Clicked {n}", custom_id=f"t:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        started_by = interaction.message.interaction_metadata if interaction.message else None
        if started_by is not None and started_by.user.id != interaction.user.id:
            await interaction.response.send_message("not your counter", ephemeral=True)
            return
        await interaction.response.edit_message(
            embed=counter_embed(self.n + 1), view=counter_view(self.n + 1)
        )


def counter_embed(n: int) -> discord.Embed:
    return discord.Embed(title="Counter", description=f"count={n}")


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(n))
    return view


class TinyBot(commands.Bot):
    """A bot with a /t group: pick (autocomplete), big (embed size), later (defer)."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.1,
        )
        self.guild_id = guild_id
        self.reply_delay = 0.0
        self.errors: list[BaseException] = []
        group = app_commands.Group(name="t", description="Tiny test commands")

        @group.command(name="pick", description="Pick a fruit")
        @app_commands.describe(fruit="A fruit", count="How many", loud="Shout")
        async def pick(
            interaction: discord.Interaction, fruit: str, count: int = 1, loud: bool = False
        ) -> None:
            await asyncio.sleep(self.reply_delay)
            where = "dm" if interaction.guild_id is None else "guild"
            who = "member" if isinstance(interaction.user, discord.Member) else "user"
            text = f"{fruit} x{count} ({type(count).__name__}, {type(loud).__name__}) {where} {who}"
            await interaction.response.send_message(
                content=text.upper() if loud else text, embed=counter_embed(0), view=counter_view(0)
            )

        @pick.autocomplete("fruit")
        async def fruit_choices(
            interaction: discord.Interaction, typed: str
        ) -> list[app_commands.Choice[str]]:
            return [
                app_commands.Choice(name=f.title(), value=f) for f in FRUITS if f.startswith(typed)
            ]

        @group.command(name="big", description="An embed of a given size")
        async def big(interaction: discord.Interaction, size: int) -> None:
            await interaction.response.send_message(embed=discord.Embed(description="x" * size))

        @group.command(name="later", description="Think, then answer")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True, ephemeral=True)
            await interaction.followup.send("done thinking", ephemeral=True)

        @group.command(name="twice", description="Think privately, then answer twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True, ephemeral=True)
            await interaction.followup.send("first", ephemeral=False)
            await interaction.followup.send("second", ephemeral=False)

        self.tree.add_command(group)

        @self.tree.error
        async def on_tree_error(
            interaction: discord.Interaction, error: app_commands.AppCommandError
        ) -> None:
            self.errors.append(error)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        await self.tree.sync()


@pytest.fixture
def fake(fake_discord: FakeDiscord) -> FakeDiscord:
    return fake_discord


async def test_bot_logs_in_connects_and_syncs_commands(fake: FakeDiscord, start_bot: Any) -> None:
    bot = await start_bot(TinyBot(fake.guild.id))
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and guild.get_channel(fake.guild.channel_id) is not None
    [command] = fake.guild_commands[fake.guild.id]
    assert command["name"] == "t"
    assert [o["name"] for o in command["options"]] == ["pick", "big", "later", "twice"]
    assert [c["name"] for c in fake.global_commands] == ["t"]
    assert fake.connected


async def test_slash_command_reply_has_typed_options_an_embed_and_a_button(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    alice = fake.user("alice")
    result = await fake.slash(
        alice, "t", sub="pick", options={"fruit": "apple", "count": 3, "loud": True}
    )
    assert result.callback_type == 4
    message = result.message
    assert message is not None
    assert message.content == "APPLE X3 (INT, BOOL) GUILD MEMBER"
    assert message.embed is not None and message.embed["description"] == "count=0"
    assert message.custom_ids == ["t:count:0"]
    assert message.author is fake.bot_user and not message.ephemeral
    assert message.interaction_metadata is not None
    assert message.interaction_metadata["user"]["id"] == str(alice.id)
    assert fake.channel_messages() == [message]


async def test_slash_command_in_a_dm_comes_from_a_user_without_guild(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    result = await fake.slash(
        fake.user("bob"), "t", sub="pick", options={"fruit": "cherry"}, dm=True
    )
    message = await result.wait_message()
    assert message.content == "cherry x1 (int, bool) dm user"
    assert message.guild_id is None


async def test_autocomplete_returns_the_bots_choices(fake: FakeDiscord, start_bot: Any) -> None:
    await start_bot(TinyBot(fake.guild.id))
    choices = await fake.autocomplete(
        fake.user("alice"), "t", sub="pick", options={"fruit": "ap"}, focused="fruit"
    )
    assert choices == [{"name": "Apple", "value": "apple"}, {"name": "Apricot", "value": "apricot"}]


async def test_clicking_the_button_updates_the_message_in_place(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    alice = fake.user("alice")
    board = (await fake.slash(alice, "t", sub="pick", options={"fruit": "apple"})).message
    assert board is not None
    click = await fake.click(alice, board, "t:count:0")
    assert click.callback_type == UPDATE_MESSAGE
    assert click.message is board and click.edited
    assert board.embed is not None and board.embed["description"] == "count=1"
    again = await fake.click(alice, board, label="Clicked 1")
    assert again.callback_type == UPDATE_MESSAGE
    assert board.custom_ids == ["t:count:2"]
    # Each edit is kept, in order, as it left the message.
    assert [e["embeds"][0]["description"] for e in board.edits] == ["count=1", "count=2"]


async def test_another_users_click_gets_an_ephemeral_reply(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    board = (
        await fake.slash(fake.user("alice"), "t", sub="pick", options={"fruit": "apple"})
    ).message
    assert board is not None
    click = await fake.click(fake.user("bob"), board, "t:count:0")
    assert click.callback_type == 4 and click.ephemeral
    assert click.message is not None and click.message.content == "not your counter"
    assert click.clicked_message is board and not click.edited


async def test_two_clicks_at_once_are_both_delivered(fake: FakeDiscord, start_bot: Any) -> None:
    await start_bot(TinyBot(fake.guild.id))
    alice = fake.user("alice")
    board = (await fake.slash(alice, "t", sub="pick", options={"fruit": "apple"})).message
    assert board is not None
    clicks = await asyncio.gather(
        fake.click(alice, board, "t:count:0"), fake.click(alice, board, "t:count:0")
    )
    assert [c.callback_type for c in clicks] == [UPDATE_MESSAGE, UPDATE_MESSAGE]
    assert board.version == 2 and board.custom_ids == ["t:count:1"]


async def test_a_user_cannot_click_a_disabled_or_missing_button(fake: FakeDiscord) -> None:
    button = {"type": 2, "style": 1, "custom_id": "off", "label": "Off", "disabled": True}
    message = FakeMessage(
        id=1,
        channel_id=fake.guild.channel_id,
        guild_id=fake.guild.id,
        author=fake.bot_user,
        components=[{"type": 1, "components": [button]}],
    )
    fake.messages[message.id] = message
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(fake.user("alice"), message, "off")
    with pytest.raises(LookupError, match="no component 'on'"):
        await fake.click(fake.user("alice"), message, "on")
    assert not fake.interactions


async def test_a_new_bot_object_handles_the_old_messages_button(
    fake: FakeDiscord, start_bot: Any
) -> None:
    first = await start_bot(TinyBot(fake.guild.id))
    alice = fake.user("alice")
    board = (await fake.slash(alice, "t", sub="pick", options={"fruit": "apple"})).message
    assert board is not None
    await first.close()
    await start_bot(TinyBot(fake.guild.id))
    click = await fake.click(alice, board, "t:count:0")
    assert click.callback_type == UPDATE_MESSAGE
    assert board.custom_ids == ["t:count:1"]


async def test_a_deferred_answer_is_filled_in_by_the_first_followup(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    result = await fake.slash(fake.user("alice"), "t", sub="later")
    assert result.callback_type == DEFERRED_CHANNEL_MESSAGE
    message = await result.wait_message()
    assert message.content == "done thinking" and message.ephemeral and not message.loading


async def test_the_first_followup_after_a_defer_keeps_the_defers_flags(
    fake: FakeDiscord, start_bot: Any
) -> None:
    # Discord's rule (discord-api-docs issue 2742 and pull request 3466): a
    # follow-up sent while the "thinking…" message is loading resolves that
    # message, and its ephemeral flag cannot change; later follow-ups are new
    # messages with their own flags.
    await start_bot(TinyBot(fake.guild.id))
    result = await fake.slash(fake.user("alice"), "t", sub="twice")
    first, second = await result.wait_followups(2)
    assert first.id == result.message_id and first.content == "first"
    assert first.ephemeral and not first.loading
    assert second.id != first.id and second.content == "second" and not second.ephemeral


async def test_the_bot_resumes_its_gateway_session_after_a_reconnect(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    session = await fake.reconnect()
    assert session.resumes == 1 and len(fake.sessions) == 1
    result = await fake.slash(fake.user("alice"), "t", sub="pick", options={"fruit": "banana"})
    assert result.callback_type == 4


async def test_a_bad_token_gives_login_failure(fake: FakeDiscord) -> None:
    with pytest.raises(discord.LoginFailure):
        async with fake.running(TinyBot(fake.guild.id), token="bad-token"):
            pass
    assert not fake.sessions


async def test_an_oversized_embed_is_refused_and_recorded(
    fake: FakeDiscord, start_bot: Any
) -> None:
    bot = await start_bot(TinyBot(fake.guild.id))
    fake.spec = None  # the fake's own limit, alone (the spec refuses it too: test_discord_spec)
    with pytest.raises(DiscordViolation, match="description: Must be 4096 or fewer"):
        await fake.slash(fake.user("alice"), "t", sub="big", options={"size": 4097})
    [violation] = fake.take_violations()
    assert violation.rule == "invalid-form-body"
    await fake.wait_until(lambda: bool(bot.errors))
    assert isinstance(bot.errors[0].__cause__, discord.HTTPException)
    ok = await fake.slash(fake.user("alice"), "t", sub="big", options={"size": 4096})
    assert ok.callback_type == 4


async def test_a_late_first_response_is_unknown_and_recorded(
    fake: FakeDiscord, start_bot: Any
) -> None:
    bot = await start_bot(TinyBot(fake.guild.id))
    fake.response_deadline = 0.05
    bot.reply_delay = 0.2
    with pytest.raises(DiscordViolation, match="deadline"):
        await fake.slash(fake.user("alice"), "t", sub="pick", options={"fruit": "apple"})
    assert [v.rule for v in fake.take_violations()] == ["deadline"]
    await fake.wait_until(lambda: bool(bot.errors))
    assert isinstance(bot.errors[0].__cause__, discord.NotFound)


async def test_a_second_initial_response_is_refused(fake: FakeDiscord, start_bot: Any) -> None:
    await start_bot(TinyBot(fake.guild.id))
    result = await fake.slash(fake.user("alice"), "t", sub="pick", options={"fruit": "apple"})
    url = f"{fake.api_base}/interactions/{result.id}/{result.token}/callback"
    async with (
        aiohttp.ClientSession() as http,
        http.post(url, json={"type": 4, "data": {"content": "again"}}) as answer,
    ):
        assert answer.status == 400
        assert answer.headers["Content-Type"] == "application/json"
        body = await answer.json()
    assert body == {"message": "Interaction has already been acknowledged.", "code": 40060}
    assert [v.rule for v in fake.take_violations()] == ["already-acknowledged"]


async def test_an_interaction_token_expires_after_15_minutes(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    result = await fake.slash(fake.user("alice"), "t", sub="pick", options={"fruit": "apple"})
    fake.advance(15 * 60 + 1)
    url = f"{fake.api_base}/webhooks/{fake.application_id}/{result.token}?wait=true"
    async with aiohttp.ClientSession() as http, http.post(url, json={"content": "late"}) as answer:
        assert answer.status == 401
    assert [v.rule for v in fake.take_violations()] == ["token-expired"]


async def test_the_test_side_refuses_what_the_discord_client_would_not_send(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    alice = fake.user("alice")
    with pytest.raises(LookupError, match="no subcommand 'nope'"):
        await fake.slash(alice, "t", sub="nope")
    with pytest.raises(ValueError, match="required option"):
        await fake.slash(alice, "t", sub="pick")
    with pytest.raises(TypeError, match="integer"):
        await fake.slash(alice, "t", sub="pick", options={"fruit": "apple", "count": "3"})
    with pytest.raises(LookupError, match="no /nothing command"):
        await fake.slash(alice, "nothing")


async def test_a_429_looks_like_discords_and_is_recorded_with_each_attempt(
    fake: FakeDiscord,
) -> None:
    fault = fake.fail("GET", r"^/users/@me$", status=429, retry_after=1.25)
    url = f"{fake.api_base}/users/@me"
    headers = {"Authorization": "Bot any-token"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.get(url) as limited:
            assert limited.status == 429
            assert limited.headers["Content-Type"] == "application/json"
            body = await limited.json()
            got = dict(limited.headers)
        async with http.get(url) as after:  # a fault answers `times` requests, then no more
            assert after.status == 200
    assert body == {"message": "You are being rate limited.", "retry_after": 1.25, "global": False}
    assert got["Retry-After"] == "2" and got["X-RateLimit-Reset-After"] == "1.250"
    assert got["X-RateLimit-Limit"] == "5" and got["X-RateLimit-Remaining"] == "0"
    assert float(got["X-RateLimit-Reset"]) > 0 and got["X-RateLimit-Bucket"] == fault.bucket
    assert got["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in got
    assert got["Via"]  # discord.py retries only a 429 that came through Discord's proxy
    assert [a.status for a in fake.attempts_at("GET", r"^/users/@me$")] == [429, 200]
    assert fault.spent and [a.status for a in fault.attempts] == [429]
    assert fake.requests == [("GET", "/api/v10/users/@me")]  # handled: only the second


async def test_5xx_answers_are_json_or_cloudflare_pages_and_applied_ones_are_done(
    fake: FakeDiscord,
) -> None:
    channel = fake.guild.channel_id
    url = f"{fake.api_base}/channels/{channel}/messages"
    path = rf"^/channels/{channel}/messages$"
    fake.fail("POST", path, status=500)
    fake.fail("POST", path, status=502)
    fake.fail("POST", path, status=503, applied=True)
    answers = []
    async with aiohttp.ClientSession() as http:
        for text in ("one", "two", "three"):
            async with http.post(url, json={"content": text}) as answer:
                answers.append((answer.status, answer.content_type, await answer.text()))
    assert [(status, kind) for status, kind, _ in answers] == [
        (500, "application/json"),
        (502, "text/html"),
        (503, "application/json"),
    ]
    assert "502 Bad Gateway" in answers[1][2]
    # Only the applied one was done, though its answer said it failed.
    assert [m.content for m in fake.channel_messages()] == ["three"]


async def test_a_held_request_is_done_late_or_not_at_all_if_its_client_gave_up(
    fake: FakeDiscord,
) -> None:
    channel = fake.guild.channel_id
    url = f"{fake.api_base}/channels/{channel}/messages"
    fault = fake.hang("POST", rf"^/channels/{channel}/messages$", seconds=0.5, times=2)
    async with aiohttp.ClientSession() as http:
        with pytest.raises(TimeoutError):
            async with http.post(
                url, json={"content": "gave up"}, timeout=aiohttp.ClientTimeout(total=0.1)
            ):
                pass
        async with http.post(url, json={"content": "waited"}) as answer:
            assert answer.status == 200
    await fake.wait_until(lambda: fault.hits == 2)
    gave_up, waited = sorted(fault.attempts, key=lambda a: a.at)
    assert gave_up.status == ABANDONED and waited.status == 200
    assert waited.answered_at - waited.at >= 0.5
    assert [m.content for m in fake.channel_messages()] == ["waited"]


async def test_the_bot_retries_a_429_storm_on_a_followup_after_retry_after_and_posts_once(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    fake.fail("POST", FOLLOWUP_PATH, status=429, times=3, retry_after=0.2)
    result = await fake.slash(fake.user("alice"), "t", sub="later")
    [message] = await result.wait_followups(1)
    assert message.content == "done thinking"
    attempts = fake.attempts_at("POST", FOLLOWUP_PATH)
    assert [a.status for a in attempts] == [429, 429, 429, 200]
    for before, after in itertools.pairwise(attempts):
        assert after.at - before.answered_at >= 0.2  # discord.py slept retry_after
    await asyncio.sleep(0.3)
    assert result.followup_ids == [message.id]


async def test_a_429_on_the_initial_response_is_retried_within_the_deadline(
    fake: FakeDiscord, start_bot: Any
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    fake.fail("POST", CALLBACK_PATH, status=429, retry_after=0.3)
    result = await fake.slash(fake.user("alice"), "t", sub="pick", options={"fruit": "apple"})
    assert result.callback_type == 4
    assert [a.status for a in fake.attempts_at("POST", CALLBACK_PATH)] == [429, 200]


@pytest.mark.parametrize("code", [4000, None], ids=["close-4000", "cut-1006"])
async def test_the_bot_resumes_its_session_after_the_gateway_drops(
    fake: FakeDiscord, start_bot: Any, code: int | None
) -> None:
    await start_bot(TinyBot(fake.guild.id))
    session = await fake.drop_gateway(code)
    assert session.resumes == 1 and len(fake.sessions) == 1  # resumed, not identified again
    result = await fake.slash(fake.user("alice"), "t", sub="pick", options={"fruit": "banana"})
    assert result.callback_type == 4


def test_fault_arguments_are_checked(fake: FakeDiscord) -> None:
    with pytest.raises(ValueError, match="status"):
        fake.fail("GET", ".*", status=404)
    with pytest.raises(ValueError, match="delay"):
        fake.fail("GET", ".*", status=None)
    with pytest.raises(ValueError, match="rate limited"):
        fake.fail("GET", ".*", status=429, applied=True)
    fault = fake.fail("GET", ".*", times=3)
    fake.clear_faults()
    assert fault.spent


def test_embed_limits() -> None:
    ok = {"title": "t" * 256, "description": "d" * 4096, "footer": {"text": "f" * 1000}}
    assert embed_errors([ok]) == []
    paths = [
        e.path
        for e in embed_errors(
            [
                {"title": "t" * 257, "fields": [{"name": "n" * 257, "value": "v" * 1025}] * 26},
                {"footer": {"text": "f" * 2049}},
            ]
        )
    ]
    assert ("embeds", 0, "title") in paths
    assert ("embeds", 0, "fields") in paths
    assert ("embeds", 0, "fields", 0, "name") in paths
    assert ("embeds", 0, "fields", 0, "value") in paths
    assert ("embeds", 1, "footer", "text") in paths
    assert ("embeds",) in paths  # more than 6000 characters in all
    assert [e.path for e in embed_errors([{"description": "x"}] * 11)] == [("embeds",)]


def test_message_and_component_limits() -> None:
    def button(custom_id: str, label: str = "b") -> dict[str, Any]:
        return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}

    assert [e.path for e in message_errors({"content": "x" * 2001})] == [("content",)]
    assert [e.code for e in message_errors({})] == ["EMPTY_MESSAGE"]
    rows = [{"type": 1, "components": [button(f"{r}-{i}") for i in range(5)]} for r in range(6)]
    assert component_errors(rows[:5]) == []
    assert [e.path for e in component_errors(rows)] == [("components",)]
    wide = [{"type": 1, "components": [button(str(i)) for i in range(6)]}]
    assert [e.path for e in component_errors(wide)] == [("components", 0, "components")]
    bad = [
        {
            "type": 1,
            "components": [button(""), button("x" * 101), button("a", "l" * 81), button("a")],
        }
    ]
    assert {e.code for e in component_errors(bad)} == {
        "BASE_TYPE_BAD_LENGTH",
        "BASE_TYPE_MAX_LENGTH",
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    }
    options = [{"label": str(i), "value": str(i)} for i in range(26)]
    select = [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": options}]}]
    assert [e.path for e in component_errors(select)] == [
        ("components", 0, "components", 0, "options")
    ]


def test_command_limits() -> None:
    def sub(i: int) -> dict[str, Any]:
        return {"type": 1, "name": f"s{i}", "description": "d"}

    group = {"name": "g", "description": "d", "options": [sub(i) for i in range(26)]}
    assert [e.path for e in command_errors([group])] == [(0, "options")]
    many = [{"name": f"c{i}", "description": "d"} for i in range(101)]
    assert [e.code for e in command_errors(many)] == ["APPLICATION_COMMANDS_MAX"]
    assert command_errors(many[:100]) == []
