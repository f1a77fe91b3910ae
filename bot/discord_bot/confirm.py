"""Confirmation before anything that throws work away: ``/reel new``, ``/reel daily`` and
``/reel resign`` over a game in progress (``GameService.would_end`` says which game that
is), ``/reel undo`` of more than ``CONFIRM_UNDO`` moves (when there are that many), and
``/reel restart`` when it would take back more than that.

The question is private, with one button, a ``SureButton``; its custom_id carries
what to do and the version of the game it was asked about
(``reel:sure:<new|daily|resign|undo|restart>:<user>:<version>:<deal or count>[:<game>]``, at
most 83 characters; the game of a new game or a daily, when one was named), so a click
after the game changed does nothing, and a restart of the bot loses nothing. The board it leads to
goes out publicly, as a new message.
"""

from __future__ import annotations

import re
from typing import Final, Literal

import discord

from ..service import CONFIRM_UNDO, GameView, StaleVersionError
from .embeds import info_embed
from .items import ReelItem
from .replies import (
    Interaction,
    send_error,
    send_private,
    service_of,
)
from .views import CUSTOM_ID_PREFIX, board_as_new_message

What = Literal["new", "daily", "resign", "undo", "restart"]

SURE_TEMPLATE: Final = (
    rf"{CUSTOM_ID_PREFIX}:sure:(?P<what>new|daily|resign|undo|restart)"
    r":(?P<user_id>[0-9]{1,20}):(?P<version>[0-9]{1,20}):(?P<arg>[0-9]{1,20})"
    r"(?::(?P<game>[a-z]{2}))?"
)
QUESTIONS: Final[dict[What, str]] = {
    "new": "Start a new game?",
    "daily": "Play the daily challenge?",
    "resign": "Resign it?",
    "undo": "Take back {count} moves? /reel redo brings them back.",
    "restart": "Start this deal over, taking back all {count} moves? /reel redo brings them back.",
}
LABELS: Final[dict[What, str]] = {
    "new": "Start a new game",
    "daily": "Play the daily",
    "resign": "Resign",
    "undo": "Take them back",
    "restart": "Start over",
}
CHANGED: Final = "Your game has changed since you were asked, so nothing was done."


class SureButton(ReelItem[discord.ui.Button[discord.ui.View]], template=SURE_TEMPLATE):
    """The one button under a question: do it, if the game is still as it was asked about."""

    def __init__(
        self, what: What, user_id: int, version: int, arg: int = 0, game: str | None = None
    ) -> None:
        tail = "" if game is None else f":{game}"
        super().__init__(
            discord.ui.Button(
                label=LABELS[what],
                style=discord.ButtonStyle.danger,
                custom_id=f"{CUSTOM_ID_PREFIX}:sure:{what}:{user_id}:{version}:{arg}{tail}",
            )
        )
        self.what: What = what
        self.owner: int = user_id
        self.version, self.arg, self.game = version, arg, game

    @classmethod
    def from_match(cls, match: re.Match[str]) -> SureButton:
        what = match["what"]
        assert what in LABELS
        user, version, arg = int(match["user_id"]), int(match["version"]), int(match["arg"])
        return cls(what, user, version, arg, match["game"])

    async def click(self, interaction: Interaction) -> None:
        service, owner, version = service_of(interaction), self.owner, self.version
        if self.what == "new":
            deal = self.arg or None
            work = service.new_game(
                owner, interaction.guild_id, deal, replaces_version=version, variant=self.game
            )
        elif self.what == "daily":
            work = service.daily(
                owner, interaction.guild_id, self.game or "vr", replaces_version=version
            )
        elif self.what == "resign":
            work = service.resign(owner, expected_version=version)
        elif self.what == "restart":
            work = service.restart(owner, expected_version=version)
        else:
            work = service.undo(owner, expected_version=version, count=self.arg)
        await board_as_new_message(interaction, work)

    async def stale(self, interaction: Interaction, exc: StaleVersionError) -> None:
        await send_error(interaction, CHANGED)  # the question is old: nothing to redraw


def large_undo(current: GameView, count: int) -> bool:
    """Whether an undo of ``count`` moves of ``current`` is asked about first: more than
    ``CONFIRM_UNDO``, and no more than can be taken back (the service refuses those, with
    nothing to ask)."""
    return CONFIRM_UNDO < count <= current.undoable


def question_text(what: What, current: GameView, arg: int = 0) -> str:
    """The question before ``what`` over ``current``: what ends, and how it is recorded."""
    if what in ("undo", "restart"):
        return QUESTIONS[what].format(count=arg)
    how = "resigned" if what == "resign" else "abandoned"
    if current.daily_in_play:
        ends = f"Your scored daily of {current.daily_date} ends, recorded as {how}: it is "
        ends += "the day's one scored attempt."
    else:
        ends = f"Your game in progress ends, recorded as {how}."
    return f"{ends} {QUESTIONS[what]}"


async def ask(
    interaction: Interaction, what: What, current: GameView, arg: int = 0, game: str | None = None
) -> None:
    """The private question, with its button (``game``: of the new game, if one was named)."""
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(SureButton(what, current.user_id, current.version, arg, game))
    text = question_text(what, current, arg)
    await send_private(interaction, info_embed(text), buttons)
