"""The Discord bot: building it around a game service, and running it from ``reel bot``.

``create_bot`` makes the bot object (the tests start it against a fake
Discord); ``run_bot`` opens the database (a service over it: ``open_service``; the
adapter never imports the store), runs the bot until it is stopped,
and turns a missing or rejected token into one line on stderr and exit code 2.
``REEL_DISCORD_API`` and ``REEL_DISCORD_GATEWAY`` point it at another Discord
endpoint (a REST proxy; the tests' fake Discord).

SIGTERM and Ctrl-C (SIGINT) stop the bot cleanly, in this order: new
interactions are refused politely (the ``gate``, see ``gate.py``); the ones in
flight get ``STOP_WAIT`` seconds to finish and be written; the bot disconnects
from Discord; the service closes the solver's workers and the database; exit
code 0. A second signal skips the wait (the database is still closed).
Slash commands are synced to the development server at start-up when one is
configured (they show at once there); the global sync, which takes up to an
hour to reach every server, happens only when asked for (``reel bot
--sync-global``, or the owner's ``@bot sync`` message).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any, Final, Literal, Protocol

import aiohttp
import discord
import yarl
from aiohttp import web
from discord import app_commands
from discord.ext import commands

from ..config import DEFAULT_DB_PATH, Config, shard_filter
from ..ops import Health, Metrics, add_routes, database_check, serving, shards_check
from ..service import DatabaseUnavailableError, GameService, describe_database, open_service
from ..service.cooldown import Cooldown
from .commands import on_tree_error
from .extensions import EXTENSIONS
from .gate import Gate
from .launch import ENTRY_POINT, sync_global_commands
from .metering import Meter, shards_of
from .races import Races
from .replies import DEFAULT_PAGE_SIZE, NO_PINGS, stopping, too_fast

__all__ = ["create_bot", "run_bot", "shard_filter"]  # shard_filter: bot.config's, for tests

log = logging.getLogger(__name__)

Figures = Callable[[], Mapping[str, float]]
Routes = Callable[[web.Application, Figures], None]
"""Pages to add to a server run beside the bot (``/metrics`` and ``/healthz``)."""
Announce = Callable[[int], Awaitable[None]]
"""Posts the standings of a race an Activity's room opened, in its channel."""


class Beside(Protocol):
    """A server run beside the bot over its service and cooldown, told how to announce a
    race in its channel, with ``Routes`` added to it (``bot.web.local.beside_bot``)."""

    def __call__(
        self,
        service: GameService,
        cooldown: Cooldown | None,
        announce: Announce | None = None,
        routes: Routes | None = None,
        /,
    ) -> AbstractAsyncContextManager[object]: ...


EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_BAD_TOKEN: Final = 2

STOP_WAIT: Final = 6.5
"""Seconds the interactions in flight get to finish when the bot is stopped."""
CLOSE_WAIT: Final = 1.5
"""Seconds the disconnect from Discord may take before the stop goes on without it. With
``STOP_WAIT``, 8 of the 10 seconds a stop may take; the rest is for closing the solver's
workers and the database."""

NO_TOKEN: Final = (
    "reel bot: DISCORD_TOKEN is not set; put the bot token from the Discord developer portal "
    "in the environment or in .env"
)
BAD_TOKEN: Final = (
    "reel bot: Discord rejected the token in DISCORD_TOKEN; copy the bot token again from the "
    "developer portal (Bot > Reset Token)"
)


class ReelTree(app_commands.CommandTree[discord.Client]):
    """The slash commands, behind the stop's gate and the per-user cooldown (autocomplete
    is free)."""

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        if await stopping(interaction):
            return False
        if interaction.type is discord.InteractionType.autocomplete:
            return True
        return not await too_fast(interaction)

    async def sync(
        self, *, guild: discord.abc.Snowflake | None = None
    ) -> list[app_commands.AppCommand]:
        """As discord.py's, but a global sync keeps the Activity's Entry Point command
        (``launch.sync_global_commands``)."""
        if guild is not None or self.client.application_id is None:
            return await super().sync(guild=guild)
        http = self.client.http
        stored = await sync_global_commands(self, http, self.client.application_id)
        state = self.client._connection  # discord.py's own state, as tree.sync uses it
        ours = [data for data in stored if data.get("type") != ENTRY_POINT]
        return [app_commands.AppCommand(data=data, state=state) for data in ours]  # type: ignore[arg-type]


class ReelBot(commands.AutoShardedBot):
    """The bot: the ``/reel`` commands and the board and leaderboard buttons, over one
    ``GameService``. Nothing it sends pings anyone (no allowed mentions, by default too).
    ``gate``: closed when the bot stops, it counts the interactions in flight.

    Sharded (docs/scaling.md): ``shard_count`` shards in all (None: as many as Discord
    advises), of which this process runs ``shard_ids`` (None: every one); Discord sends a
    process only the interactions of its shards' servers (DMs: shard 0)."""

    def __init__(
        self,
        service: GameService,
        *,
        dev_guild_id: int | None,
        sync_global: bool = False,
        leaderboard_page_size: int = DEFAULT_PAGE_SIZE,
        cooldown: Cooldown | None = None,
        metrics: Metrics | None = None,
        freeze_heap: bool = False,
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
        self.gate = Gate()
        self.metrics = metrics or Metrics()  # bot/ops/metrics.py: what an operator watches
        self.meter = Meter(self.metrics)  # this bot's interactions told to it
        self.metrics.watch_shards(lambda: shards_of(self))
        self.freeze_heap = freeze_heap  # once ready (``reel bot``; research/gc_pause.md)
        self.reel_service = service
        self.dev_guild_id = dev_guild_id
        self.sync_global = sync_global
        self.leaderboard_page_size = leaderboard_page_size
        self.tree.error(on_tree_error)
        self.add_command(sync_command)

    async def setup_hook(self) -> None:
        for extension in EXTENSIONS:  # each feature's cog: its commands, items and state
            await self.load_extension(extension)
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
        shards = ",".join(str(shard) for shard in sorted(self.shards))
        log.info("running shard(s) %s of %s", shards, self.shard_count)
        if self.freeze_heap:
            self.freeze_heap = False  # once: on_ready comes again after a reconnect
            froze()


def froze() -> None:
    """Collect once and freeze what start-up made (``gc.freeze``): a full collection then
    no longer visits the modules, the service and the caches filled so far, which cut its
    pause from about 47 ms to 4 ms in a bot-like process (research/gc_pause.md)."""
    started = time.perf_counter()
    gc.collect()
    gc.freeze()
    log.info(
        "froze %d objects of the start-up in %.0f ms (gc.freeze): full collections skip them",
        gc.get_freeze_count(),
        (time.perf_counter() - started) * 1000,
    )


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
    metrics: Metrics | None = None,
    freeze_heap: bool = False,
    **client_kwargs: Any,
) -> ReelBot:
    """The bot around ``service``.

    ``leaderboard_page_size``: rows on a leaderboard page (tests use small pages).
    ``cooldown``: the per-user limit on commands and clicks (``cooldown.Cooldown``; by
    default its ``RATE`` and ``BURST``; None: no limit, for tests that play fast).
    ``metrics``: where the bot's interactions and shards are told (a new ``Metrics``
    by default; ``bot.metrics``). ``freeze_heap``: once ready, freeze what start-up made
    (``froze``; ``reel bot`` does, tests don't: it would freeze the test runner's heap).
    ``client_kwargs`` go to ``commands.Bot`` (tests pass ``guild_ready_timeout=0.1``).
    """
    return ReelBot(
        service,
        dev_guild_id=dev_guild_id,
        sync_global=sync_global,
        leaderboard_page_size=leaderboard_page_size,
        cooldown=Cooldown() if cooldown == "default" else cooldown,
        metrics=metrics,
        freeze_heap=freeze_heap,
        **client_kwargs,
    )


def use_endpoints(config: Config) -> None:
    """Point discord.py at the configured REST base and gateway (unset: Discord's own)."""
    if config.discord_api:
        discord.http.Route.BASE = config.discord_api
        log.info("Discord REST API: %s", yarl.URL(config.discord_api).with_user(None))
    if config.discord_gateway:
        gateway = yarl.URL(config.discord_gateway)
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
        log.info("Discord gateway: %s", gateway.with_user(None))


def run_bot(config: Config, sync_global: bool = False, beside: Beside | None = None) -> int:
    """Run the bot until it is stopped; the exit code (2: no token or a rejected one).
    ``beside``: a server to run in the same loop over the bot's service and cooldown (the
    web board, ``REEL_WEB_PORT``), started before the bot and stopped before the service."""
    token = config.discord_token
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return EXIT_BAD_TOKEN
    discord.utils.setup_logging(level=logging.getLevelName(config.log_level))
    try:
        return asyncio.run(_serve(config, token, sync_global, beside))
    except KeyboardInterrupt:  # Ctrl-C before the stop's signal handlers were in place
        return EXIT_OK


class StopSignals:
    """SIGTERM and SIGINT while the bot runs: the first asks for a clean stop
    (``requested``), a second for a stop at once (``urgent``)."""

    SIGNALS: Final = (signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        self.requested = asyncio.Event()
        self.urgent = asyncio.Event()
        self.name = ""

    def __enter__(self) -> StopSignals:
        loop = asyncio.get_running_loop()
        for signum in self.SIGNALS:
            # Not on Windows: there Ctrl-C stays a KeyboardInterrupt (run_bot).
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, self._received, signum)
        return self

    def __exit__(self, *exc: object) -> None:
        loop = asyncio.get_running_loop()
        for signum in self.SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signum)

    def _received(self, signum: int) -> None:
        name = signal.Signals(signum).name
        if not self.requested.is_set():
            self.name = name
            self.requested.set()
        elif not self.urgent.is_set():
            log.warning("%s again: stopping at once, without waiting", name)
            self.urgent.set()


async def _serve(
    config: Config, token: str, sync_global: bool, beside: Beside | None = None
) -> int:
    use_endpoints(config)
    try:
        # run only some shards: the other shards' processes write the database too (even
        # an SQLite file), so a game in memory is used only at its stored version
        service = await open_service(
            config.database,
            shared=config.shard_ids is not None,
            warm_next_daily=True,
            hint_deadline=config.hint_deadline,
        )
    except DatabaseUnavailableError as exc:
        print(f"reel bot: cannot open the database {exc.where!r}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    opened(config)
    shards = None if config.shard_ids is None else list(config.shard_ids)
    if shards is not None and config.shard_count is not None:
        service.races.only(shard_filter(config.shard_count, shards))
    bot = create_bot(
        service,
        dev_guild_id=config.dev_guild_id,
        sync_global=sync_global,
        shard_count=config.shard_count,
        shard_ids=shards,
        freeze_heap=True,
    )
    with StopSignals() as signals:
        try:
            async with contextlib.AsyncExitStack() as stack:
                try:
                    await _beside_bot(stack, config, bot, service, beside)
                except OSError as exc:  # a port taken
                    print(f"reel bot: cannot start {exc}", file=sys.stderr)
                    return EXIT_FAILED
                return await _run(bot, token, signals)
        finally:
            if not bot.is_closed():
                await bot.close()
            await service.close()
            log.info("stopped: the solver's workers and the database are closed")


def announce_on(bot: ReelBot) -> Callable[[int], Awaitable[None]]:
    """What an Activity's room calls when it opens a race: the bot posts the race's
    standings in its channel (``races.Races.announce``)."""

    async def announce(race_id: int) -> None:
        races = bot.get_cog(Races.__cog_name__)
        if isinstance(races, Races):
            await races.announce(race_id)

    return announce


async def _beside_bot(
    stack: contextlib.AsyncExitStack,
    config: Config,
    bot: ReelBot,
    service: GameService,
    beside: Beside | None,
) -> None:
    """Start what runs beside the bot, stopped by ``stack``: the metrics and health pages
    (``REEL_METRICS_PORT``; else on the web board's port when it runs), and the web board.
    ``OSError`` (its words naming which) when a port can't be had."""
    bot.metrics.watch_service(service, bot.cooldown)
    checks = {"database": database_check(service), "shards": shards_check(lambda: shards_of(bot))}
    health = Health(checks)
    pages_on_board = config.metrics_port is None
    if config.metrics_port is not None:
        pages = serving(config.metrics_host, config.metrics_port, bot.metrics, health)
        try:
            await stack.enter_async_context(pages)
        except OSError as exc:
            raise OSError(f"the metrics pages: {exc}") from exc

    def on_board(app: web.Application, figures: Figures) -> None:
        """The board's figures in the metrics; the pages on its port, when not on theirs."""
        bot.metrics.watch_web(figures)
        if pages_on_board:
            add_routes(app, bot.metrics, health, private=True)

    if beside is not None:
        try:
            served = beside(service, bot.cooldown, announce_on(bot), on_board)
            await stack.enter_async_context(served)
        except OSError as exc:
            raise OSError(f"the web board: {exc}") from exc


def opened(config: Config) -> None:
    """Log which database the bot opened, and where its setting came from (an operator's
    first question when games seem lost: docs/operations.md), and the data folder."""
    if config.database_url is not None:
        log.info(
            "database: PostgreSQL %s (from %s)", describe_database(config.database), config.db_from
        )
    else:
        path = config.db_path.resolve()
        log.info("database: SQLite file %s (from %s)", path, config.db_from)
    log.info("data folder (the default database's place): %s", DEFAULT_DB_PATH.parent)


async def _run(bot: ReelBot, token: str, signals: StopSignals) -> int:
    """Run ``bot`` until it ends or a signal stops it; the exit code."""
    running = asyncio.create_task(bot.start(token), name="reel-bot")
    stop = asyncio.create_task(signals.requested.wait())
    try:
        await asyncio.wait({running, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
    if signals.requested.is_set():
        await _stop(bot, running, signals)
        if not running.done():
            running.cancel()  # asyncio.run collects it
            return EXIT_OK
    try:
        await running
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return EXIT_BAD_TOKEN
    except (aiohttp.ClientError, OSError) as exc:
        print(f"reel bot: cannot reach Discord: {exc}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


async def _stop(bot: ReelBot, running: asyncio.Task[None], signals: StopSignals) -> None:
    """The clean stop: refuse new interactions, let those in flight finish (at most
    ``STOP_WAIT`` seconds, or until a second signal), then disconnect (``running`` is
    ``bot.start``, which then ends; at most ``CLOSE_WAIT`` seconds)."""
    bot.gate.close()
    log.info(
        "%s: stopping; new interactions are refused, %d in flight get up to %.0f s to finish",
        signals.name,
        len(bot.gate),
        STOP_WAIT,
    )
    drain = asyncio.create_task(bot.gate.drain(STOP_WAIT))
    urgent = asyncio.create_task(signals.urgent.wait())
    await asyncio.wait({drain, urgent}, return_when=asyncio.FIRST_COMPLETED)
    urgent.cancel()
    left = drain.result() if drain.done() else len(bot.gate)
    drain.cancel()
    if left:
        log.warning("stopping with %d interaction(s) still running", left)
    else:
        log.info("every interaction in flight is done")
    closing = asyncio.ensure_future(bot.close())
    _, pending = await asyncio.wait({closing, running}, timeout=CLOSE_WAIT)
    if not pending:
        log.info("disconnected from Discord")
    else:
        log.warning("the disconnect from Discord took over %.0f s; going on without it", CLOSE_WAIT)
