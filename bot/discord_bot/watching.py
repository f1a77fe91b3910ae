"""``/reel watch`` (a live, read-only board of another player's game) and ``/reel ghost``.

A watch message is public: the player's board with no move buttons, only Stop. It
follows the game (``GameService.on_change``): a change pokes the watch, which
redraws it from the game as it then stands, one edit at a time and at most one
every ``WATCH_INTERVAL`` seconds, so a burst of moves costs one or two edits and the
newest state always wins. The message is edited through the channel (not the
interaction's token, which dies after 15 minutes).

A watch ends, its last board kept with a line saying why and the Stop button gone,
when the game is over (the final board), when the player goes on to another game or
starts the day's daily, when they turn ``watchable`` off, after ``WATCH_LIMIT``
seconds, when the watcher watches the same player again in a newer message, or when
Stop is pressed: by the watcher or by the player watched (nobody else).

Watches live in memory: after a restart an old watch message no longer follows its
game; its Stop button (``reelw:stop:<watcher>:<player>``, a DynamicItem) then turns
it into "no longer live", and ``/reel watch`` starts a new one.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

import discord
from discord import app_commands

from ..service import GameService, GameView, ServiceError
from ..service.watching import ENDED_GONE, WatchView
from .embeds import OVER_COLOUR, TITLE_LIMIT, board_embed, clip
from .features import Bot, Feature, Subcommand, bot_service, cog_of
from .items import ReelItem
from .metering import answered
from .replies import (
    NO_PINGS,
    Interaction,
    send_public,
    service_of,
    within_deadline,
)
from .views import send_board

log = logging.getLogger(__name__)

PREFIX: Final = "reelw"
STOP_TEMPLATE: Final = rf"{PREFIX}:stop:(?P<watcher>[0-9]{{1,20}}):(?P<player>[0-9]{{1,20}})"
WATCH_INTERVAL: float = 1.5
"""Seconds between two redraws of a watch message, at least (the newest state wins)."""
WATCH_LIMIT: float = 3600.0
"""Seconds a watch follows a game; then it says so and stops."""
EDIT_PATIENCE: Final = 20.0
LIVE_FOOTER: Final = "👀 Live: follows the game as it is played"
ENDED_LIMIT: Final = "This watch reached its time limit (an hour): /reel watch again to go on."
ENDED_NEWER: Final = "This watch goes on in a newer message."
ENDED_RESTART: Final = "The bot restarted since: /reel watch again to follow the game."
NOT_YOURS: Final = "Only the one watching, or the player watched, can stop this watch."

Button = discord.ui.Button[discord.ui.View]


WATCHING: Final = "👀 Watching · "
WATCHED: Final = "Watched · "


def watch_embed(view: GameView, ended: str | None = None) -> discord.Embed:
    """The player's board, read-only, marked live; or, once the watch ``ended``, no longer
    live: why, in place of the live line."""
    embed = board_embed(view)
    title, footer = embed.title or "", embed.footer.text or ""
    if ended is None:
        embed.title = clip(f"{WATCHING}{title}", TITLE_LIMIT)
        embed.set_footer(text=f"{footer}\n{LIVE_FOOTER}")
        return embed
    return ended_embed(embed, ended, WATCHED + title, footer)


def ended_embed(board: discord.Embed, why: str, title: str, footer: str) -> discord.Embed:
    """``board`` no longer live, with ``title`` and ``footer``: why, after its text."""
    embed = board.copy()
    embed.title = clip(title, TITLE_LIMIT)
    embed.set_footer(text=footer or None)
    embed.description = clip(f"{embed.description or ''}\n**No longer live:** {why}", 4096)
    embed.colour = OVER_COLOUR
    return embed


def unlive(shown: discord.Embed, why: str) -> discord.Embed:
    """A watch message the bot no longer follows (it restarted since): the only copy of its
    board is the message's, so its live marks, as ``watch_embed`` added them, are taken
    off that copy."""
    title = shown.title or ""
    if title.startswith(WATCHING):
        title = WATCHED + title.removeprefix(WATCHING)
    footer = (shown.footer.text or "").removesuffix(f"\n{LIVE_FOOTER}")
    return ended_embed(shown, why, title, footer)


class StopButton(ReelItem[Button], template=STOP_TEMPLATE):
    """Stop under a watch message: the watcher and the player watched may press it."""

    not_yours = NOT_YOURS

    def __init__(self, watcher: int, player: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Stop watching",
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:stop:{watcher}:{player}",
            )
        )
        self.watcher, self.player = watcher, player

    @classmethod
    def from_match(cls, match: re.Match[str]) -> StopButton:
        return cls(int(match["watcher"]), int(match["player"]))

    def may_use(self, user_id: int) -> bool:
        return user_id in (self.watcher, self.player)

    async def click(self, interaction: Interaction) -> None:
        message = interaction.message
        assert message is not None
        watches = watches_of(interaction.client)
        watch = watches.live.get(message.id)
        who = "the player watched" if interaction.user.id == self.player else "the watcher"
        why = f"Stopped by {who}."
        posting = watches.starting.get((self.watcher, self.player))
        if watch is not None:
            watch.finish(why, draw=False)
            embed = watch_embed(watch.game, why)
        elif posting is not None:  # stopped before it was under way
            posting.stopped = why
            embed = watch_embed(posting.game, why)
        else:  # over already, or a restart since
            shown = message.embeds[0] if message.embeds else discord.Embed()
            embed = unlive(shown, ENDED_RESTART)
        await interaction.response.edit_message(embed=embed, view=None, allowed_mentions=NO_PINGS)
        answered(interaction)


def stop_view(watcher: int, player: int) -> discord.ui.View:
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(StopButton(watcher, player))
    return buttons


@dataclass(eq=False)
class Posting:
    """A watch being posted: the game it shows, and why it was stopped meanwhile."""

    game: GameView
    stopped: str | None = None


@dataclass(eq=False)
class Watch:
    """One live watch message and its redraws."""

    watches: Watches
    watcher: int
    player: int
    started_at: datetime | None  # which game it follows
    channel_id: int
    message_id: int
    game: GameView  # the game as last drawn
    version: int  # the game's version last drawn
    pending: bool = False
    ended: str | None = None
    task: asyncio.Task[None] | None = None
    timer: asyncio.TimerHandle | None = None
    next_at: float = field(default_factory=time.monotonic)

    def poke(self) -> None:
        """The game changed: redraw soon (one redraw at a time, the newest state wins)."""
        self.pending = True
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._redraws())

    def finish(self, why: str, *, draw: bool = True) -> None:
        """End the watch; with ``draw``, the message says why (else the caller draws it)."""
        if self.ended is not None:
            return
        self.ended = why
        self.watches.drop(self)
        if self.timer is not None:
            self.timer.cancel()
        if draw:
            task = asyncio.get_running_loop().create_task(self._edit(watch_embed(self.game, why)))
            self.watches.keep(task)

    async def _redraws(self) -> None:
        while self.pending and self.ended is None:
            wait = self.next_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.pending = False
            try:
                look = await self.watches.service.watching.look(self.player, self.started_at)
            except ServiceError:  # no one to refuse: the watch ends, saying the game is gone
                look = WatchView(None, ENDED_GONE)
            if self.ended is not None:
                return  # stopped meanwhile
            if look.ended is not None:
                if look.game is not None:
                    self.game = look.game
                self.finish(look.ended)
                return
            if look.game is None or look.game.version == self.version:
                continue  # nothing new to show
            self.game, self.version = look.game, look.game.version
            await self._edit(watch_embed(self.game), stop_view(self.watcher, self.player))
            self.next_at = time.monotonic() + WATCH_INTERVAL

    async def _edit(self, embed: discord.Embed, buttons: discord.ui.View | None = None) -> None:
        channel = self.watches.client.get_partial_messageable(self.channel_id)
        message = channel.get_partial_message(self.message_id)
        try:
            await asyncio.wait_for(
                message.edit(embed=embed, view=buttons, allowed_mentions=NO_PINGS), EDIT_PATIENCE
            )
        except discord.NotFound:
            self.finish("The message is gone.", draw=False)
        except (discord.HTTPException, TimeoutError) as exc:
            log.warning("watch message %s not redrawn: %s", self.message_id, exc)


class Watches:
    """The live watches of one bot, by message and by player watched."""

    def __init__(self, service: GameService, client: discord.Client) -> None:
        self.service = service
        self.client = client
        self.live: dict[int, Watch] = {}  # by message id
        self.starting: dict[tuple[int, int], Posting] = {}  # by (watcher, player)
        self._tasks: set[asyncio.Task[None]] = set()
        service.on_change(self._changed, following=self.players)
        service.watching.on_unwatchable(self._unwatchable)

    def add(self, watch: Watch) -> None:
        """Follow ``watch`` from now on (unless Stop was pressed while it was posted)."""
        posting = self.starting.pop((watch.watcher, watch.player), None)
        if posting is not None and posting.stopped is not None:
            watch.ended = posting.stopped
            return
        for other in list(self.live.values()):
            if (other.watcher, other.player) == (watch.watcher, watch.player):
                other.finish(ENDED_NEWER)
        self.live[watch.message_id] = watch
        loop = asyncio.get_running_loop()
        watch.timer = loop.call_later(WATCH_LIMIT, watch.finish, ENDED_LIMIT)

    def drop(self, watch: Watch) -> None:
        self.live.pop(watch.message_id, None)

    def keep(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def players(self) -> set[int]:
        """The players watched live now."""
        return {w.player for w in self.live.values()}

    def of(self, player: int) -> list[Watch]:
        return [w for w in self.live.values() if w.player == player]

    def _changed(self, user_id: int, version: int) -> None:
        for watch in self.of(user_id):
            watch.poke()

    def _unwatchable(self, user_id: int) -> None:
        for watch in self.of(user_id):
            watch.poke()  # its redraw finds the setting off and ends it


class Watching(Feature):
    """The watching extension's cog (``extensions/watching``): ``/reel watch`` and
    ``/reel ghost``, the watch's Stop button, and the bot's live watches (``watches``,
    made at the first need: until then no game is followed)."""

    items = (StopButton,)

    def __init__(self, bot: Bot, service: GameService) -> None:
        super().__init__(bot)
        self.service = service
        self.made: Watches | None = None

    @property
    def watches(self) -> Watches:
        if self.made is None:
            self.made = Watches(self.service, self.bot)
        return self.made

    def subcommands(self) -> list[Subcommand]:
        return watch_commands()


def watches_of(client: discord.Client) -> Watches:
    """The live watches of the bot ``client``."""
    return cog_of(client, Watching).watches


async def setup(bot: Bot) -> None:
    await bot.add_cog(Watching(bot, bot_service(bot)))


async def teardown(bot: Bot) -> None:
    await bot.remove_cog(Watching.__cog_name__)


@app_commands.describe(player="The player whose game to follow")
async def watch(interaction: Interaction, player: discord.User | discord.Member) -> None:
    service = service_of(interaction)
    watcher = interaction.user.id
    view = await within_deadline(interaction, service.watching.start(watcher, player.id))
    embed = watch_embed(view)
    watches = watches_of(interaction.client)
    watches.starting[(watcher, player.id)] = Posting(view)
    try:
        await send_public(interaction, embed, stop_view(watcher, player.id))
        message = await interaction.original_response()
    except BaseException:
        watches.starting.pop((watcher, player.id), None)
        raise
    where = (message.channel.id, message.id)
    live = Watch(watches, watcher, player.id, view.started_at, *where, view, view.version)
    watches.add(live)
    live.poke()  # a move made meanwhile is not missed


@app_commands.describe(on="On or off (default: the other way from now)")
async def ghost(interaction: Interaction, on: bool | None = None) -> None:
    service = service_of(interaction)
    view = await within_deadline(interaction, service.ghosts.toggle(interaction.user.id, on))
    await send_board(interaction, view)


def watch_commands() -> list[app_commands.Command[Any, ..., None]]:
    """New ``watch`` and ``ghost`` commands (one of each for each ``/reel`` group)."""
    return [
        app_commands.Command(
            name="watch",
            description="Follow another player's game live (read-only), until it ends",
            callback=watch,
        ),
        app_commands.Command(
            name="ghost",
            description="In a daily: show in the footer how the day's best run stood at your move",
            callback=ghost,
        ),
    ]
