"""The Discord bot: building it around a game service, and running it from ``reel bot``.

``create_bot`` makes the bot object (the tests start it against a fake
Discord); ``run_bot`` opens the SQLite store, runs the bot until it is stopped,
and turns a missing or rejected token into one line on stderr and exit code 2.
Slash commands are synced to the development server at start-up when one is
configured (they show at once there); the global sync, which takes up to an
hour to reach every server, happens only when asked for (``reel bot
--sync-global``, or the owner's ``@bot sync`` message).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any, Final, Literal

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from ..config import Config
from ..service import GameService
from ..store import Store, StoreError
from .commands import ReelCommands, on_tree_error
from .confirm import SureButton
from .cooldown import Cooldown
from .leaderboards import PageButton
from .replies import DEFAULT_PAGE_SIZE, NO_PINGS, too_fast
from .views import BoardButton, MoveMenu, RewindButton

log = logging.getLogger(__name__)

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_BAD_TOKEN: Final = 2

NO_TOKEN: Final = (
    "reel bot: DISCORD_TOKEN is not set; put the bot token from the Discord developer portal "
    "in the environment or in .env"
)
BAD_TOKEN: Final = (
    "reel bot: Discord rejected the token in DISCORD_TOKEN; copy the bot token again from the "
    "developer portal (Bot > Reset Token)"
)


class ReelTree(app_commands.CommandTree[discord.Client]):
    """The slash commands, behind the per-user cooldown (autocomplete is free)."""

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        if interaction.type is discord.InteractionType.autocomplete:
            return True
        return not await too_fast(interaction)


class ReelBot(commands.Bot):
    """The bot: the ``/reel`` commands and the board and leaderboard buttons, over one
    ``GameService``. Nothing it sends pings anyone (no allowed mentions, by default too)."""

    def __init__(
        self,
        service: GameService,
        *,
        dev_guild_id: int | None,
        sync_global: bool = False,
        leaderboard_page_size: int = DEFAULT_PAGE_SIZE,
        cooldown: Cooldown | None = None,
        **client_kwargs: Any,
    ) -> None:
        # The bot never joins voice: don't warn at every start that voice libraries are missing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        client_kwargs.setdefault("intents", discord.Intents.default())
        client_kwargs.setdefault("help_command", None)
        client_kwargs.setdefault("allowed_mentions", NO_PINGS)
        client_kwargs.setdefault("tree_cls", ReelTree)
        super().__init__(command_prefix=commands.when_mentioned, **client_kwargs)
        self.cooldown = cooldown
        self.reel_service = service
        self.dev_guild_id = dev_guild_id
        self.sync_global = sync_global
        self.leaderboard_page_size = leaderboard_page_size
        self.tree.error(on_tree_error)
        self.add_command(sync_command)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(BoardButton, MoveMenu, RewindButton, PageButton, SureButton)
        self.tree.add_command(ReelCommands(self.reel_service))
        if self.dev_guild_id is not None:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self._sync(guild)
        if self.sync_global:
            await self._sync(None)

    async def _sync(self, guild: discord.abc.Snowflake | None) -> None:
        where = f"server {guild.id}" if guild is not None else "every server (global)"
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            log.error(
                "could not sync the slash commands to %s: %s (is the bot in that server, "
                "invited with the applications.commands scope?)",
                where,
                exc.text or exc.status,
            )
            return
        log.info("synced %d slash command(s) to %s", len(synced), where)

    async def on_ready(self) -> None:
        user = self.user
        user_id = user.id if user else "?"
        log.info("logged in as %s (id %s) in %d server(s)", user, user_id, len(self.guilds))


@commands.command(name="sync", help="Owner only: publish the slash commands to every server.")
@commands.is_owner()
async def sync_command(ctx: commands.Context[commands.Bot]) -> None:
    """``@bot sync``: the owner's way to sync the commands globally without a restart."""
    synced = await ctx.bot.tree.sync()
    await ctx.reply(
        f"Synced {len(synced)} slash command(s) globally; Discord may take up to an hour."
    )


def create_bot(
    service: GameService,
    *,
    dev_guild_id: int | None,
    sync_global: bool = False,
    leaderboard_page_size: int = DEFAULT_PAGE_SIZE,
    cooldown: Cooldown | Literal["default"] | None = "default",
    **client_kwargs: Any,
) -> commands.Bot:
    """The bot around ``service``.

    ``leaderboard_page_size``: rows on a leaderboard page (tests use small pages).
    ``cooldown``: the per-user limit on commands and clicks (``cooldown.Cooldown``; by
    default its ``RATE`` and ``BURST``; None: no limit, for tests that play fast).
    ``client_kwargs`` go to ``commands.Bot`` (tests pass ``guild_ready_timeout=0.1``).
    """
    return ReelBot(
        service,
        dev_guild_id=dev_guild_id,
        sync_global=sync_global,
        leaderboard_page_size=leaderboard_page_size,
        cooldown=Cooldown() if cooldown == "default" else cooldown,
        **client_kwargs,
    )


def run_bot(config: Config, sync_global: bool = False) -> int:
    """Run the bot until it is stopped; the exit code (2: no token or a rejected one)."""
    token = config.discord_token
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return EXIT_BAD_TOKEN
    discord.utils.setup_logging(level=logging.getLevelName(config.log_level))
    try:
        return asyncio.run(_serve(config, token, sync_global))
    except KeyboardInterrupt:
        return EXIT_OK


async def _serve(config: Config, token: str, sync_global: bool) -> int:
    try:
        store = await Store.open(config.db_path)
    except (StoreError, OSError) as exc:
        print(f"reel bot: cannot open the database {str(config.db_path)!r}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    service = GameService(store, warm_next_daily=True)
    bot = create_bot(service, dev_guild_id=config.dev_guild_id, sync_global=sync_global)
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return EXIT_BAD_TOKEN
    except (aiohttp.ClientError, OSError) as exc:
        print(f"reel bot: cannot reach Discord: {exc}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        await service.close()
    return EXIT_OK
