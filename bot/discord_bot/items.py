"""What every button and menu of the bot shares: ``ReelItem``.

Each is a discord.py ``DynamicItem``: its whole state is in its custom_id,
so a board drawn before a restart still works after it (each feature's cog registers
its subclasses: ``features.Feature``). ``ReelItem`` makes the parts they have in common once:

- rebuilding the item from a custom_id (``parse``; a subclass says how in
  ``from_match``);
- the stop (``gate``): a click while the bot stops is refused, politely; one let in
  is waited for;
- the cooldown (``cooldown``): a user clicking faster than it allows is told to wait;
- who may click it: an item that acts on a player's game (``owner`` set) refuses
  anyone else, privately, in ``interaction_check``: discord.py drops a refused click
  without answering it, so the refusal is sent there. A subclass configures the one
  check, never overrides it: another sentence (``not_yours``), or other users allowed
  (``may_use``: a watch's Stop, for the watcher and the player watched);
- the callback: the subclass's ``click``, run by ``replies.run_click``: a refusal of the
  service (a ``ServiceError``) reaches the clicker privately, a click on an out-of-date
  board or question is answered by the item's ``stale`` (a board's redraws the board as
  the game now stands), and an unexpected failure is logged and the clicker told
  privately (a button never fails silently). ``click`` itself only does the work.
"""

from __future__ import annotations

import contextlib
import functools
import re
from typing import Any, ClassVar, Final, Generic, Self, TypeVar

import discord

from ..service import StaleVersionError
from .replies import Interaction, refusal, run_click, send_error, stopping, too_fast

NOT_YOUR_GAME: Final = "This is not your game — start your own with /reel new."
UNEXPECTED: Final = "Something went wrong on my side and I couldn't do that. Please try again."
NEVER: Final = r"(?!)"
"""The base class's own template, which matches nothing: only its subclasses are registered."""

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class ReelItem(discord.ui.DynamicItem[ItemT], Generic[ItemT], template=NEVER):
    """A button or menu whose state is its custom_id; ``owner`` is the player whose game
    it acts on (None: anyone may use it, as a leaderboard's pages)."""

    owner: int | None = None
    unexpected: ClassVar[str] = UNEXPECTED  # what a clicker is told if a click fails
    not_yours: ClassVar[str] = NOT_YOUR_GAME  # what anyone else is told (``may_use``)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """The item a custom_id matching the class's template stands for."""
        raise NotImplementedError

    @classmethod
    def parse(cls, custom_id: str) -> Self | None:
        """The item ``custom_id`` stands for, or None if it is not one of this class's."""
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is None:
            return None
        try:
            return cls.from_match(match)
        except ValueError:  # the template's shape, but not a value (a date that isn't one)
            return None

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls.from_match(match)

    def may_use(self, user_id: int) -> bool:
        """Whether ``user_id`` may click the item: anyone, unless it has an ``owner``."""
        return self.owner is None or user_id == self.owner

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        if await stopping(interaction) or await too_fast(interaction):
            return False
        if self.may_use(interaction.user.id):
            return True
        with contextlib.suppress(discord.HTTPException):
            await send_error(interaction, self.not_yours)
        return False

    async def click(self, interaction: Interaction) -> None:
        """What a click (or a pick in a menu) does, once the clicker is known to be allowed."""
        raise NotImplementedError

    async def stale(self, interaction: Interaction, exc: StaleVersionError) -> None:
        """A click the service refused because the game changed since the item was drawn
        (nothing was done): its sentence privately, unless the item says better (a
        board's redraws the board as the game now stands)."""
        await send_error(interaction, refusal(exc))

    async def callback(self, interaction: Interaction) -> None:
        stale = functools.partial(self.stale, interaction)
        work = self.click(interaction)
        await run_click(interaction, work, self.custom_id, self.unexpected, stale)
