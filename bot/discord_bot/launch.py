"""The web board as a Discord Activity, launched from chat (``docs/activity.md``).

- "Play on the board", a button under every chat board (``LaunchButton``, whose custom
  id is fixed: it works on any board, for whoever clicks it), and ``/reel board`` both
  answer with ``launch_activity()`` (interaction callback type 12): Discord opens the
  Activity in that channel for the clicker, who signs in there (``bot/web/activity.py``).
- An application whose Activities are not enabled in the Developer Portal gets a
  refusal from Discord: the clicker is told so, privately.
- Enabling Activities makes Discord add an Entry Point command (application command type
  4) to the global commands. discord.py does not model it, and a bulk overwrite without
  it is refused (error 50240), so ``sync_global_commands`` sends it back with the tree's,
  offered wherever ``/reel`` is: the same installation types and contexts (issue 61).
"""

from __future__ import annotations

import logging
import re
from typing import Any, Final

import discord
from discord import app_commands

from .features import Bot, Feature, Subcommand
from .items import ReelItem
from .replies import Interaction, send_error

log = logging.getLogger(__name__)

CUSTOM_ID: Final = "activity:launch"
LABEL: Final = "Play on the board"
ENTRY_POINT: Final = 4
"""Discord's application command type of an Activity's Entry Point command."""
PLACES: Final = ("integration_types", "contexts")
"""What says where a command is offered: the Entry Point copies them from ``/reel``."""
NOT_ENABLED: Final = (
    "The board can't open here: this bot's Activity is not enabled (its operator turns "
    "Activities on in the Discord Developer Portal: docs/activity.md). Play in chat with "
    "the buttons, or with /reel move."
)
FAILED: Final = "Discord did not open the board just now: try again in a moment."

Button = discord.ui.Button[discord.ui.View]


class LaunchButton(ReelItem[Button], template=CUSTOM_ID):
    """ "Play on the board": opens the Activity for whoever clicks (anyone may)."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Button(label=LABEL, style=discord.ButtonStyle.primary, custom_id=CUSTOM_ID)
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> LaunchButton:
        return cls()

    async def click(self, interaction: Interaction) -> None:
        await launch(interaction)


async def launch(interaction: Interaction) -> None:
    """Answer with the Activity (callback type 12); where Discord refuses, say why privately."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as exc:
        log.info("the Activity was not launched: %s %s", exc.status, exc.text)
        await send_error(interaction, NOT_ENABLED if exc.status == 400 else FAILED)


async def board(interaction: Interaction) -> None:
    await launch(interaction)


def board_command() -> app_commands.Command[Any, Any, None]:
    """``/reel board``: the web board, as an Activity in this channel."""
    return app_commands.Command(
        name="board",
        description="Open the board here as a Discord Activity: drag cards, race everyone here",
        callback=board,
    )


async def sync_global_commands(
    tree: app_commands.CommandTree[Any], http: Any, application_id: int
) -> list[dict[str, Any]]:
    """Publish the tree's global commands, keeping Discord's Entry Point command (type
    4, made when Activities are enabled), which a plain ``tree.sync()`` would drop and
    Discord then refuses (50240); it is declared where the tree's commands are (their
    ``integration_types`` and ``contexts``), so the Activity opens wherever ``/reel``
    is offered. The commands as Discord stored them."""
    existing = await http.get_global_commands(application_id)
    commands = [command.to_dict(tree) for command in tree.get_commands()]
    places = {key: value for c in commands for key, value in c.items() if key in PLACES}
    entry = [{**c, **places} for c in existing if c.get("type") == ENTRY_POINT]
    payload = commands + entry
    stored: list[dict[str, Any]] = await http.bulk_upsert_global_commands(
        application_id, payload=payload
    )
    return stored


class Launch(Feature):
    """The launch extension's cog (``extensions/launch``): "Play on the board" and
    ``/reel board``."""

    items = (LaunchButton,)

    def subcommands(self) -> list[Subcommand]:
        return [board_command()]


async def setup(bot: Bot) -> None:
    await bot.add_cog(Launch(bot))


async def teardown(bot: Bot) -> None:
    await bot.remove_cog(Launch.__cog_name__)
