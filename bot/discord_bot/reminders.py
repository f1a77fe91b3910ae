"""The streak reminder's delivery: a background task that DMs the players due one.

``StreakReminders`` is a cog (its extension, ``extensions/reminders``, adds it on the
process of shard 0, which sends the DMs), so it stops
with the bot: ``Bot.close`` removes the cogs, and ``cog_unload`` cancels the
task. Every ``TICK`` seconds, once the bot is ready, it asks the service who is
due (``GameService.reminders``, by the service's clock: from 22:00 UTC, players
whose streak breaks at midnight and who have not played today) and sends each one
DM, with no mentions. A DM that fails (the player closed their DMs, left every
server with the bot) is logged and not tried again that day; a database that
fails is logged and asked again at the next tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final

import discord
from discord.ext import commands

from ..service import GameService, ServiceError
from ..service.reminders import Reminder
from .embeds import discord_timestamp
from .features import Bot, bot_service

log = logging.getLogger(__name__)

TICK: Final = 60.0
"""Seconds between two looks at who is due (tests make it shorter)."""

NO_MENTIONS: Final = discord.AllowedMentions.none()


def reminder_text(reminder: Reminder) -> str:
    """The DM: the streak, the daily that keeps it and when it closes, how to stop these."""
    days = "day" if reminder.streak == 1 else "days"
    return (
        f"Your Virginia Reel daily streak is {reminder.streak} {days}, and today's daily "
        f"({reminder.day.isoformat()}) closes {discord_timestamp(reminder.closes_at)} "
        "(midnight UTC). Play it with **/reel daily** to keep the streak going.\n"
        "-# You asked for this reminder; /reel settings streak_reminder:False turns it off."
    )


class StreakReminders(commands.Cog):
    """The reminder task of ``bot``: one round every ``tick`` seconds while it runs."""

    def __init__(self, bot: commands.Bot | commands.AutoShardedBot, service: GameService) -> None:
        self.bot = bot
        self.service = service
        self.tick = TICK
        self._task: asyncio.Task[None] | None = None
        self._one_round = asyncio.Lock()

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._run(), name="reel-streak-reminders")

    async def cog_unload(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            try:
                await self.round()
            except ServiceError as exc:  # the database: logged by the service; next tick
                log.warning("streak reminders skipped this round: %s", exc)
            except Exception:
                log.exception("streak reminders: unexpected failure; trying again later")
            await asyncio.sleep(self.tick)

    async def round(self) -> int:
        """Send the reminders due now; how many were delivered. One round at a time, and
        each reminder marked sent before it goes: never two of one, even if a send is slow."""
        delivered = 0
        async with self._one_round:
            for reminder in await self.service.reminders.due():
                self.service.reminders.sent(reminder)
                if await self._send(reminder):
                    delivered += 1
        return delivered

    async def _send(self, reminder: Reminder) -> bool:
        try:
            channel = await self.bot.create_dm(discord.Object(id=reminder.user_id))
            await channel.send(reminder_text(reminder), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.info(
                "streak reminder to %s not delivered (%s %s): not tried again today",
                reminder.user_id,
                exc.status,
                exc.text or exc.code,
            )
            return False
        log.info("streak reminder sent to %s", reminder.user_id)
        return True


async def setup(bot: Bot) -> None:
    """The reminders on the process that sends DMs: shard 0's (``extensions/reminders``)."""
    shards = bot.shard_ids if isinstance(bot, commands.AutoShardedBot) else None
    if shards is None or 0 in shards:  # DMs are shard 0's: one sender
        await bot.add_cog(StreakReminders(bot, bot_service(bot)))


async def teardown(bot: Bot) -> None:
    await bot.remove_cog(StreakReminders.__cog_name__)
