"""What a player types in a command's options, read once: ``app_commands.Transformer``s
(discord.py's own example: ``examples/app_commands/transformers.py``), so a handler
receives the value read, never the text.

- ``DealNumber``: ``/reel new deal:`` and ``/reel race deal:``, a deal number (a string
  option: Discord's integers stop at 2**53 - 1, deal numbers run to 2**63 - 1);
- ``Day``: ``/reel daily date:``, ``/reel leaderboard date:``, ``/reel replay date:``;
- ``Game``: ``variant:``, a game of the family picked from its choices (the handler gets
  its code, ``rp``);
- ``FinishedGame``: ``/reel replay game:``, a finished game's number, picked from its list
  or typed.

A text that is not a value is refused before the handler runs: ``OptionError``, whose
sentence says how the value is written, which ``commands.on_tree_error`` sends the player
privately. Each transformer keeps its option as Discord knows it (a string of 1 to 30
characters, the variants' choices), so the commands' payloads are unchanged. The service
checks the rest (a deal number out of range, a date with no daily).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Final

import discord
from discord import app_commands

from engine import BAD_DEAL as DEAL_WORDS
from engine import MAX_DEAL, VARIANTS

BAD_DEAL: Final = f"{DEAL_WORDS}."
BAD_DATE: Final = "A date is written YYYY-MM-DD, like 2026-11-29."
BAD_GAME: Final = "Pick a game from the list (its number, like 42)."
DEAL_TEXT_LIMIT: Final = len(str(MAX_DEAL))
GAME_NUMBER_LIMIT: Final = 18
"""Digits of a finished game's number, at most (the store's row ids fit in 63 bits)."""

GAME_CHOICES: Final = [
    app_commands.Choice(name=f"{v.name}" + (" (default)" if v.code == "vr" else ""), value=v.code)
    for v in VARIANTS.values()
]

Interaction = discord.Interaction[discord.Client]


class OptionError(app_commands.AppCommandError):
    """An option whose text is not a value; ``str(error)`` is the sentence for the player."""


def deal_number_from_text(text: str | int) -> int:
    """The deal number typed; ValueError with ``BAD_DEAL`` if it is not one (digits, with
    ``,`` or ``_`` between them; leading zeros are no digits of it)."""
    cleaned = str(text).strip().replace(",", "").replace("_", "")
    # ASCII digits only: isdigit() also takes "²", which int() refuses.
    if not (cleaned.isascii() and cleaned.isdigit()):
        raise ValueError(BAD_DEAL)
    cleaned = cleaned.lstrip("0") or "0"
    if len(cleaned) > DEAL_TEXT_LIMIT:
        raise ValueError(BAD_DEAL)
    return int(cleaned)


def date_from_text(text: str) -> date:
    """The date typed, YYYY-MM-DD; ValueError with ``BAD_DATE`` if it is not one."""
    cleaned = text.strip()
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", cleaned):
        raise ValueError(BAD_DATE)
    try:
        return date.fromisoformat(cleaned)
    except ValueError:
        raise ValueError(BAD_DATE) from None


def game_number_from_text(text: str) -> int:
    """A finished game's number, picked from ``/reel replay game:``'s list (its value,
    ``42``) or typed (``#42``, ``42 won``); ValueError with ``BAD_GAME`` if it is not one."""
    cleaned = text.strip().lstrip("#").split(" ", 1)[0]
    if not (cleaned.isascii() and cleaned.isdigit()) or len(cleaned) > GAME_NUMBER_LIMIT:
        raise ValueError(BAD_GAME)
    return int(cleaned)


class TextOption(app_commands.Transformer[discord.Client]):
    """A string option of 1 to ``longest`` characters, read by ``read`` (ValueError with
    the player's sentence, raised as ``OptionError``)."""

    longest: int = 100

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return 1  # sent as min_length: a string option's bounds are its lengths

    @property
    def max_value(self) -> int:
        return self.longest

    def read(self, text: str) -> Any:
        raise NotImplementedError

    async def transform(self, interaction: Interaction, value: Any, /) -> Any:
        try:
            return self.read(str(value))
        except ValueError as exc:
            raise OptionError(str(exc)) from None


class DealNumber(TextOption):
    """A deal number (``deal_number_from_text``)."""

    longest = 30

    def read(self, text: str) -> int:
        return deal_number_from_text(text)


class Day(TextOption):
    """A date, YYYY-MM-DD (``date_from_text``)."""

    longest = 20

    def read(self, text: str) -> date:
        return date_from_text(text)


class FinishedGame(TextOption):
    """A finished game's number (``game_number_from_text``); its list is the command's
    autocomplete (``replays.game_choices``)."""

    longest = 100

    def read(self, text: str) -> int:
        return game_number_from_text(text)


class Game(app_commands.Transformer[discord.Client]):
    """A game of the family, picked from ``GAME_CHOICES``: its code (``vr``, ``rp``...).
    Discord sends only a choice's value; another is refused as any option Discord
    should not have sent (``app_commands.TransformerError``), as a choice was before."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def choices(self) -> list[app_commands.Choice[Any]]:
        return list(GAME_CHOICES)

    async def transform(self, interaction: Interaction, value: Any, /) -> str:
        if value not in VARIANTS:
            raise app_commands.TransformerError(value, self.type, self)
        return str(value)
