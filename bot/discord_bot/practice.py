"""``/reel daily date:YYYY-MM-DD``: a past date's daily, played for practice.

The date is checked first (a future date, today's or one before the first
daily is refused privately, changing nothing). Over a game in progress the
player is asked first, privately, as ``/reel new`` asks (``confirm.py``), with
one ``PracticeButton`` whose custom_id carries the owner, the version of the
game asked about and the date (``reel:practice:<user>:<version>:<YYYYMMDD>``, at
most 64 characters): a click after the game changed does nothing. A scored
daily in play is not asked about: the service refuses to end it.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Final

import discord

from ..service import GameView, ServiceError, StaleVersionError
from .confirm import CHANGED
from .embeds import info_embed
from .features import Bot, Feature
from .items import ReelItem
from .replies import (
    Interaction,
    send_error,
    send_private,
    service_of,
    within_deadline,
)
from .views import CUSTOM_ID_PREFIX, board_as_new_message, send_board

PRACTICE_TEMPLATE: Final = (
    rf"{CUSTOM_ID_PREFIX}:practice:(?P<user_id>[0-9]{{1,20}}):(?P<version>[0-9]{{1,20}})"
    r":(?P<day>[0-9]{8})"
)
QUESTION: Final = (
    "Your game in progress ends, recorded as abandoned. Practise the daily of {day} (not scored)?"
)
PRACTICE_QUESTION: Final = (
    "Your practice game of {old} ends (practice is never recorded). Practise the daily of "
    "{day} instead?"
)


def compact(day: date) -> str:
    return f"{day.year:04}{day.month:02}{day.day:02}"


class PracticeButton(ReelItem[discord.ui.Button[discord.ui.View]], template=PRACTICE_TEMPLATE):
    """The button under the question: practise ``day``, if the game is still as it was."""

    def __init__(self, user_id: int, version: int, day: date) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Practise {day.isoformat()}",
                style=discord.ButtonStyle.danger,
                custom_id=f"{CUSTOM_ID_PREFIX}:practice:{user_id}:{version}:{compact(day)}",
            )
        )
        self.owner: int = user_id
        self.version, self.day = version, day

    @classmethod
    def from_match(cls, match: re.Match[str]) -> PracticeButton:
        """ValueError for a date that is not one (20250231)."""
        raw = match["day"]
        day = date(int(raw[:4]), int(raw[4:6]), int(raw[6:]))
        return cls(int(match["user_id"]), int(match["version"]), day)

    async def click(self, interaction: Interaction) -> None:
        service = service_of(interaction)
        work = service.practice.start(
            self.owner, interaction.guild_id, self.day, replaces_version=self.version
        )
        await board_as_new_message(interaction, work)

    async def stale(self, interaction: Interaction, exc: StaleVersionError) -> None:
        await send_error(interaction, CHANGED)  # the question is old: nothing to redraw


def question(current: GameView, day: date) -> str | None:
    """What to ask before practising ``day`` over ``current``; None: nothing to ask (no
    game in progress, the same practice to resume, or a scored daily the service keeps)."""
    if not current.in_progress:
        return None
    if current.practice and current.daily_date is not None:
        if current.daily_date == day:
            return None
        return PRACTICE_QUESTION.format(old=current.daily_date.isoformat(), day=day.isoformat())
    if current.daily_date is not None and current.scored:
        return None  # the service refuses: finish or resign the day's scored daily first
    return QUESTION.format(day=day.isoformat())


async def practise(interaction: Interaction, day: date) -> None:
    """``/reel daily date:``: refuse a date that can't be practised, ask over a game in
    progress, else deal (or resume) the practice and post its board."""
    service, user = service_of(interaction), interaction.user.id
    service.practice.check(day)  # (a refusal goes to the player: commands.on_tree_error)
    try:
        current: GameView | None = await within_deadline(interaction, service.show(user))
    except ServiceError:  # not refused here: the start says what it must
        current = None  # no game (or none readable)
    asked = None if current is None else question(current, day)
    if current is not None and asked is not None:
        buttons = discord.ui.View(timeout=None)
        buttons.add_item(PracticeButton(user, current.version, day))
        await send_private(interaction, info_embed(asked), buttons)
        return
    view = await within_deadline(
        interaction, service.practice.start(user, interaction.guild_id, day)
    )
    await send_board(interaction, view)


class Practice(Feature):
    """The practice extension's cog (``extensions/practice``): the question's button
    (``/reel daily date:`` itself is the group's ``daily``, ``commands.ReelCommands``)."""

    items = (PracticeButton,)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Practice(bot))


async def teardown(bot: Bot) -> None:
    await bot.remove_cog(Practice.__cog_name__)
