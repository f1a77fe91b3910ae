"""End-to-end tests of the streak reminder: the real bot's background task, driven by the
service's clock, DMs the players whose streak breaks tonight, once, with no mentions."""

from __future__ import annotations

import pytest
from fake_discord import FakeDiscord, FakeMessage, FakeUser
from harness import Clock, Launch, resigned

import bot.discord_bot.reminders as reminders_module
from bot.discord_bot.reminders import StreakReminders
from bot.service import GameService

TICK = 0.02


@pytest.fixture(autouse=True)
def quick_ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reminder task looks at the clock every 20 ms instead of every minute."""
    monkeypatch.setattr(reminders_module, "TICK", TICK)


async def play_daily(fake: FakeDiscord, service: GameService, user: FakeUser) -> None:
    """Today's daily through Discord: dealt, one deal, resigned (a result for the streak)."""
    await (await fake.slash(user, "reel", sub="daily")).wait_message()
    await service.deal(user.id)
    await (await resigned(fake, user)).wait_message()


async def remind_me(fake: FakeDiscord, user: FakeUser, *, dm: bool = False) -> None:
    options = {"streak_reminder": True}
    answer = await fake.slash(user, "reel", sub="settings", options=options, dm=dm)
    assert (await answer.wait_message()).ephemeral


def dms(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    channel = fake.dm_channels.get(user.id)
    return [] if channel is None else fake.channel_messages(channel)


def task_of(bot: object) -> StreakReminders:
    assert hasattr(bot, "get_cog")
    cog = bot.get_cog("StreakReminders")
    assert isinstance(cog, StreakReminders)
    return cog


async def test_the_reminder_is_one_dm_at_22_utc_to_the_player_whose_streak_breaks(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    running = await launch()
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.add_user("carol")
    for player in (alice, bob, carol):
        await play_daily(fake, running.service, player)  # Sunday's daily
    await remind_me(fake, alice)
    await remind_me(fake, bob)  # Carol never asks
    clock.advance(days=1)  # Monday 09:30
    await play_daily(fake, running.service, bob)  # Bob plays Monday's: his streak is safe
    clock.advance(hours=12, minutes=29)  # 21:59: not yet
    cog = task_of(running.bot)
    assert await cog.round() == 0 and dms(fake, alice) == []

    clock.advance(minutes=1)  # 22:00 UTC: the task finds Alice at its next tick
    assert await fake.wait_until(lambda: len(dms(fake, alice)) == 1)
    [reminder] = dms(fake, alice)
    assert reminder.content.startswith(
        "Your Virginia Reel daily streak is 1 day, and today's daily (2026-11-30) closes <t:"
    )
    assert "**/reel daily**" in reminder.content and "streak_reminder:False" in reminder.content
    assert reminder.to_dict()["mentions"] == [] and not reminder.to_dict()["mention_everyone"]
    assert dms(fake, bob) == [] and dms(fake, carol) == []
    # Later rounds that evening send nothing more, to anyone.
    clock.advance(hours=1)
    assert await cog.round() == 0 and await cog.round() == 0
    assert len(dms(fake, alice)) == 1 and dms(fake, bob) == []


async def test_a_dm_that_fails_is_given_up_for_the_day_and_the_others_still_get_theirs(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    running = await launch()
    service = running.service
    dave = fake.add_user("dave")
    gone = 4242  # a player Discord no longer knows: no DM channel can be opened to them
    await play_daily(fake, service, dave)
    view = await service.daily(gone, None)
    await service.resign(gone, (await service.deal(gone, view.version)).version)
    await remind_me(fake, dave)
    await service.update_settings(gone, reminders=True)
    clock.advance(days=1, hours=12, minutes=30)  # Monday 22:00

    def opened() -> list[int]:
        return [a.status for a in fake.attempts_at("POST", r"^/users/@me/channels$")]

    assert await fake.wait_until(lambda: len(dms(fake, dave)) == 1)
    assert sorted(opened()) == [200, 400]  # Dave's channel, and the refusal for 4242
    assert await task_of(running.bot).round() == 0  # 4242 is not tried again today
    assert sorted(opened()) == [200, 400] and len(dms(fake, dave)) == 1
