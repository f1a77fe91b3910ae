"""What every feature of the bot shares as a discord.py cog: ``Feature``, and ``cog_of``.

Each feature (the boards, races, watching, replays, leaderboards, practice, the
Activity's launch, the streak reminders, the ``/reel`` commands themselves) is a cog
added by its extension (``extensions/``, which ``app.ReelBot.setup_hook`` loads, as
RoboDanny's ``bot.py`` loads its cogs). The cog holds the feature's state (the race
desk, the live watches, the board redraws under way), and while it is loaded its
dynamic items (``items``) are registered and its subcommands (``subcommands``) sit in
the one ``/reel`` group: the group stays one command, so the payload sent to Discord is
the same whichever features add to it. Code that needs a feature's state reaches it
through ``cog_of(client, TheCog)``, never through an attribute hung on the bot.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from ..service import GameService

REEL: Final = "reel"
"""The name of the one slash command group, ``/reel`` (``commands.ReelCommands``)."""
RACES_COG: Final = "Races"
"""The races' cog (``races.Races``), which plays a racer's menu of moves (``views.MoveMenu``)."""
RACE_PREFIX: Final = "race"
"""How the custom_id of every race item begins (``races.py``; a racer's menu: ``views.py``)."""

Bot = commands.Bot | commands.AutoShardedBot
DynamicItems = tuple[type[discord.ui.DynamicItem[Any]], ...]
Subcommand = app_commands.Command[Any, ..., Any]
CogT = TypeVar("CogT", bound=commands.Cog)


def bot_service(client: discord.Client) -> GameService:
    """The game service of a bot built with ``create_bot``."""
    service = getattr(client, "reel_service", None)
    if not isinstance(service, GameService):
        raise RuntimeError("this client has no game service: build it with create_bot()")
    return service


def cog_of(client: discord.Client, kind: type[CogT]) -> CogT:
    """The loaded cog of class ``kind`` on ``client`` (RuntimeError if it has none)."""
    cog = client.get_cog(kind.__cog_name__) if isinstance(client, Bot) else None
    if not isinstance(cog, kind):
        raise RuntimeError(f"this client has no {kind.__cog_name__}: build it with create_bot()")
    return cog


def reel_group(bot: Bot) -> app_commands.Group:
    """The ``/reel`` group in the bot's tree (its extension, ``commands``, is loaded first)."""
    group = bot.tree.get_command(REEL)
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("the /reel group is not loaded: load the commands extension first")
    return group


class Feature(commands.Cog):
    """A feature's cog: its ``items`` registered and its ``subcommands()`` added to the
    ``/reel`` group while it is loaded, both taken away when it is unloaded."""

    items: ClassVar[DynamicItems] = ()

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.added: list[Subcommand] = []

    def subcommands(self) -> list[Subcommand]:
        """New subcommands of ``/reel`` (a command has one parent: new ones for each bot)."""
        return []

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.items)
        self.added = self.subcommands()
        if self.added:
            group = reel_group(self.bot)
            for command in self.added:
                group.add_command(command)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.items)
        group = self.bot.tree.get_command(REEL)
        if isinstance(group, app_commands.Group):
            for command in self.added:
                group.remove_command(command.name)
        self.added = []
