"""Races in Discord (``/reel race``; ``docs/races.md``): the lobby, the racers' private
boards, the live standings, and ``/reel move`` and friends routed to a race game.

- ``/reel race`` posts the lobby publicly: who joined, when it starts, and the buttons
  Join, Leave and Start (the host's). A racer's join or leave is confirmed privately;
  the lobby message itself is redrawn by the standings' publisher, like everything
  else drawn on that message, so it has one writer.
- At the start the lobby becomes the live standings, and each racer gets the deal as a
  private (ephemeral) board: sent through the interaction they joined with while its
  token lives (15 minutes), and always on demand with the standings' "My board" button.
  Ephemeral boards keep the channel readable (25 public boards would bury it), and
  their buttons work for the whole race: each click is a fresh interaction.
- A board's buttons and menu are ``race:...`` items carrying the race, the owner and
  the game version (``RaceBoardButton``; a racer's menu of moves is the board's
  ``views.MoveMenu``, made for the race), so they survive a restart.
- ``Standings``: one message per race, edited in place through the channel, coalesced:
  per channel at most one edit in flight and one every ``EDIT_EVERY`` seconds, whatever
  the racers do; the race's changes only mark it to redraw.
- A ticker asks the service every ``TICK`` seconds for the races whose time has come
  (a lobby to start, a race to end): the times are stored, so a restart goes on.
- All of it is the races extension's cog, ``Races``: its items and ``/reel race`` while
  it is loaded, the standings' publisher, the ticker and the joins kept as its state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal, get_args

import discord
from discord import app_commands

from engine import MAX_DEAL, MIN_DEAL

from ..service import GameService, GameView, ServiceError, StaleVersionError
from ..service.races import HINTS_OFF, NOT_IN_RACE
from ..service.races.computer import DEFAULT_PACE_S, MAX_PACE_S, MIN_PACE_S
from ..service.races.contract import (
    DEFAULT_LIMIT_MINUTES,
    DEFAULT_LOBBY_MINUTES,
    MAX_LIMIT_MINUTES,
    MAX_LOBBY_MINUTES,
    MAX_RACERS,
    MIN_LIMIT_MINUTES,
    MIN_LOBBY_MINUTES,
    MIN_RACERS,
    RaceBoard,
    RacerLine,
    RaceView,
)
from .embeds import (
    DESCRIPTION_LIMIT,
    INFO_COLOUR,
    OPTIONS_LIMIT,
    OVER_COLOUR,
    WON_COLOUR,
    board_embed,
    clip,
    discord_timestamp,
    info_embed,
)
from .features import RACE_PREFIX, RACES_COG, Bot, Feature, Subcommand, bot_service, cog_of
from .items import ReelItem
from .options import DealNumber
from .replies import (
    NO_PINGS,
    Interaction,
    send_error,
    send_private,
    send_public,
    service_of,
    within_deadline,
)
from .views import MoveMenu

log = logging.getLogger(__name__)

EDIT_EVERY: Final = 1.5
"""Seconds between two edits of a channel's standings: at most 4 in any 5 seconds, under
Discord's limit of about 5 edits of messages per 5 s in a channel, however many race."""
TICK: Final = 0.5
"""Seconds between two looks at the races whose time has come."""
TOKEN_LIFE: Final = 14 * 60.0
"""Seconds a join's interaction may be used to send its racer's board (Discord: 15 min)."""
PREFIX: Final = RACE_PREFIX
STALE_RACE_BOARD: Final = (
    "That board was out of date, so nothing was done. It now shows your race game as it "
    "stands: click again if you still want to."
)
ROUTED: Final = " · while you race, /reel move, deal, undo, auto and show play your race game"
LEAVE_RACE: Final = "stop with **Leave race** (your score is kept)"
"""A stuck racer's way out: no new game here, but Leave race (``embeds.status_line``)."""

Button = discord.ui.Button[discord.ui.View]
LobbyAction = Literal["join", "leave", "start", "board"]
LOBBY_ACTIONS: Final[tuple[LobbyAction, ...]] = get_args(LobbyAction)
BoardAction = Literal["deal", "undo", "auto", "refresh", "quit"]
BOARD_ACTIONS: Final[tuple[BoardAction, ...]] = get_args(BoardAction)
_ID: Final = "[0-9]{1,20}"
_LOBBY_LABELS: Final[dict[LobbyAction, tuple[str, discord.ButtonStyle]]] = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start (host)", discord.ButtonStyle.primary),
    "board": ("My board", discord.ButtonStyle.primary),
}
_BOARD_LABELS: Final[dict[BoardAction, tuple[str, discord.ButtonStyle]]] = {
    "deal": ("Deal", discord.ButtonStyle.primary),
    "undo": ("Undo", discord.ButtonStyle.secondary),
    "auto": ("Auto", discord.ButtonStyle.success),
    "refresh": ("Refresh", discord.ButtonStyle.secondary),
    "quit": ("Leave race", discord.ButtonStyle.danger),
}
_STATUS: Final = {
    "joined": "in the lobby",
    "racing": "racing",
    "won": "🏁 finished",
    "left": "left",
    "timed_out": "time up",
}


# --------------------------------------------------------------------------- drawing


def elapsed_text(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def racer_name(line: RacerLine) -> str:
    """A racer as the standings name them: a mention (shown as a name, never a ping), or
    the computer racer's name."""
    return f"<@{line.user_id}>" if line.name is None else f"**{line.name}**"


def racer_row(line: RacerLine, card_total: int) -> str:
    """One line of the standings: place, racer, cards home, moves, time, state."""
    return (
        f"`{line.place or '-':>2}.` {racer_name(line)} · {line.score}/{card_total} home · "
        f"{line.moves} moves · {elapsed_text(line.elapsed_s)} · {_STATUS[line.status]}"
    )


def race_embed(view: RaceView) -> discord.Embed:
    """The lobby, or the standings (live, then final)."""
    head = f"Race {view.race_id} · deal {view.deal_number}"
    minutes = view.limit_s // 60
    if view.state == "lobby":
        title, colour = f"🏁 {head} · lobby", INFO_COLOUR
        intro = (
            f"Hosted by <@{view.host_id}> · {minutes} minutes · "
            f"{len(view.racers)}/{view.capacity} racers\n"
            f"Starts {discord_timestamp(view.starts_at)}, or when the host clicks Start. "
            "Join to race: everyone plays the same deal on a private board."
        )
        rows = [f"`{i:>2}.` {racer_name(r)}" for i, r in enumerate(view.racers, 1)]
    else:
        over = view.state in ("over", "cancelled")
        title = f"🏁 {head} · {'final standings' if over else 'standings'}"
        colour = OVER_COLOUR if view.state == "cancelled" else (WON_COLOUR if over else INFO_COLOUR)
        if view.state == "cancelled":
            intro = "This race was cancelled."
        elif over:
            intro = f"The race is over · {minutes} minutes · {len(view.racers)} racers"
        else:
            assert view.ends_at is not None
            intro = (
                f"Ends {discord_timestamp(view.ends_at)} · click My board to play "
                "(your board is private)"
            )
        rows = [racer_row(r, view.card_total) for r in view.racers]
    text = "\n".join([intro, "", *rows])
    embed = discord.Embed(title=title, description=clip(text, DESCRIPTION_LIMIT), colour=colour)
    embed.set_footer(
        text="Ranked: finished first, then cards home, then time, then fewer moves. "
        "Hints are off in races."
    )
    return embed


def race_view(view: RaceView) -> discord.ui.View:
    """The lobby's buttons (Join, Leave, Start), or the standings' (My board, Leave)."""
    buttons = discord.ui.View(timeout=None)
    if view.state == "lobby":
        for action in ("join", "leave", "start"):
            buttons.add_item(RaceButton(action, view.race_id))
    elif view.state == "running":
        buttons.add_item(RaceButton("board", view.race_id))
        buttons.add_item(RaceButton("leave", view.race_id))
    return buttons


def race_board_embed(board: RaceBoard) -> discord.Embed:
    game = board.game
    message = (game.message or "") + ROUTED if board.playing else game.message
    embed = board_embed(_with_message(game, message), way_out=LEAVE_RACE)
    when = f"ends {discord_timestamp(board.ends_at)}"
    state = {"won": "you finished 🏁", "left": "you left", "timed_out": "time is up"}
    embed.title = f"Race {board.race_id} · deal {game.deal_number} · " + (
        when if board.playing else state.get(board.status, "over")
    )
    return embed


def _with_message(game: GameView, message: str | None) -> GameView:
    return replace(game, message=message)


def race_board_view(board: RaceBoard) -> discord.ui.View:
    game, rid = board.game, board.race_id
    uid, ver = game.user_id, game.version
    buttons = discord.ui.View(timeout=None)
    if not board.playing:
        return buttons
    enabled = {"deal": game.can_deal, "undo": game.can_undo, "auto": game.can_auto}
    for action in BOARD_ACTIONS:
        off = not enabled.get(action, True)
        buttons.add_item(RaceBoardButton(action, rid, uid, ver, disabled=off))
    if game.moves:
        buttons.add_item(MoveMenu(uid, ver, game.moves, race_id=rid))
    return buttons


# --------------------------------------------------------------------------- items


class RaceButton(
    ReelItem[Button], template=rf"{PREFIX}:(?P<action>join|leave|start|board):(?P<race>{_ID})"
):
    """The lobby's and the standings' buttons: anyone may click them (the service says
    who may do what): ``race:<action>:<race id>``."""

    def __init__(self, action: LobbyAction, race_id: int) -> None:
        label, style = _LOBBY_LABELS[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"{PREFIX}:{action}:{race_id}")
        )
        self.action: LobbyAction = action
        self.race_id = race_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> RaceButton:
        action = match["action"]
        assert action in LOBBY_ACTIONS
        return cls(action, int(match["race"]))

    async def click(self, interaction: Interaction) -> None:
        await lobby_click(interaction, self.action, self.race_id)


_OWNED: Final = rf"(?P<race>{_ID}):(?P<user>{_ID}):(?P<ver>{_ID})"
_BOARD_TEMPLATE: Final = rf"{PREFIX}:(?P<action>{'|'.join(BOARD_ACTIONS)}):{_OWNED}"


class RaceBoardButton(ReelItem[Button], template=_BOARD_TEMPLATE):
    """A racer's board button: ``race:<action>:<race id>:<owner>:<version>``."""

    def __init__(
        self,
        action: BoardAction,
        race_id: int,
        user_id: int,
        version: int,
        *,
        disabled: bool = False,
    ) -> None:
        label, style = _BOARD_LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=f"{PREFIX}:{action}:{race_id}:{user_id}:{version}",
                disabled=disabled,
            )
        )
        self.action: BoardAction = action
        self.race_id, self.version = race_id, version
        self.owner: int = user_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> RaceBoardButton:
        action = match["action"]
        assert action in BOARD_ACTIONS
        return cls(action, int(match["race"]), int(match["user"]), int(match["ver"]))

    async def click(self, interaction: Interaction) -> None:
        await board_click(interaction, self.race_id, user_of(self), self.version, self.action)

    async def stale(self, interaction: Interaction, exc: StaleVersionError) -> None:
        await redraw_stale(interaction, self.race_id, user_of(self))


# --------------------------------------------------------------------------- acting


def user_of(item: ReelItem[Any]) -> int:
    """The owner of a racer's item (always set: the template carries it)."""
    assert item.owner is not None
    return item.owner


async def lobby_click(interaction: Interaction, action: LobbyAction, race_id: int) -> None:
    """Join, Leave, Start or My board: done, then confirmed privately (the board itself
    for My board and for the host's Start); the message is redrawn by the standings. A
    refusal (full, not the host...) reaches the clicker privately: ``replies.run_click``."""
    races = service_of(interaction).races
    user = interaction.user.id
    if action == "board":
        board = await within_deadline(interaction, races.board(race_id, user))
        await send_private(interaction, race_board_embed(board), race_board_view(board))
        return
    if action == "join":
        view = await within_deadline(interaction, races.join(race_id, user))
        races_of(interaction).joined(race_id, interaction)
        when = discord_timestamp(view.starts_at)
        note = f"You joined race {race_id}: it starts {when}; your board comes here then."
    elif action == "leave":
        view = await within_deadline(interaction, races.leave(race_id, user))
        mine = view.racer(user)
        note = f"You left race {race_id}."
        if mine is not None and view.state != "cancelled":
            note += f" You keep {mine.score} cards home."
        if view.state == "cancelled":
            note += " The race is cancelled: you were its host."
    else:
        await within_deadline(interaction, races.start(race_id, user))
        board = await races.board(race_id, user)
        await send_private(interaction, race_board_embed(board), race_board_view(board))
        await races_of(interaction).send_boards(races, race_id, skip=user)
        return
    await send_private(interaction, info_embed(note))


async def board_click(
    interaction: Interaction,
    race_id: int,
    owner: int,
    version: int,
    action: str,
    text: str = "",
) -> None:
    """A racer's board button or menu: played, and the board redrawn in place (an
    out-of-date board is refused, and redrawn as the race game stands: ``redraw_stale``)."""
    races = service_of(interaction).races
    if action == "refresh":
        board = await within_deadline(interaction, races.board(race_id, owner))
    elif action == "quit":
        await within_deadline(interaction, races.leave(race_id, owner))
        board = await races.board(race_id, owner)
    else:
        work = races.play(race_id, owner, action, text, version)
        board = await within_deadline(interaction, work)
    await send_public(interaction, race_board_embed(board), race_board_view(board))


async def redraw_stale(interaction: Interaction, race_id: int, owner: int) -> None:
    """A click on an out-of-date race board: the board redrawn as the race game stands,
    and the racer told why privately (``replies.refuse``)."""
    board = await service_of(interaction).races.board(race_id, owner)
    await send_public(interaction, race_board_embed(board), race_board_view(board))
    await send_private(interaction, info_embed(STALE_RACE_BOARD))


async def routed(interaction: Interaction, action: str, text: str = "") -> bool:
    """Whether the player is racing, and ``/reel <action>`` was answered with their race
    game (privately: their board is private) instead of their main game; a refusal of the
    race game is raised, for ``commands.on_tree_error``."""
    races = service_of(interaction).races
    user = interaction.user.id
    try:
        race_id = await within_deadline(interaction, races.race_of(user))
    except ServiceError:  # not refused: the main game's command says what it must
        return False
    if race_id is None:
        return False
    if action == "hint":
        await send_error(interaction, HINTS_OFF)
        return True
    if action == "show":
        board = await within_deadline(interaction, races.board(race_id, user))
    elif action in ("move", "deal", "undo", "auto"):
        board = await within_deadline(interaction, races.play(race_id, user, action, text))
    else:
        await send_error(interaction, NOT_IN_RACE)
        return True
    await send_private(interaction, race_board_embed(board), race_board_view(board))
    return True


async def race_choices(
    interaction: Interaction, typed: str
) -> list[app_commands.Choice[str]] | None:
    """``/reel move``'s list while the player races: their race game's moves (None: not racing)."""
    races = service_of(interaction).races
    user = interaction.user.id
    race_id = await races.race_of(user)
    if race_id is None:
        return None
    moves = await races.move_choices(race_id, user, typed, OPTIONS_LIMIT)
    return [app_commands.Choice(name=m, value=m) for m in moves]


# --------------------------------------------------------------------------- the command


@app_commands.describe(
    deal=f"Deal number, {MIN_DEAL} to {MAX_DEAL}; empty for a random winnable deal",
    minutes=f"Time limit in minutes, {MIN_LIMIT_MINUTES} to {MAX_LIMIT_MINUTES} "
    f"(default {DEFAULT_LIMIT_MINUTES})",
    players=f"How many may join, {MIN_RACERS} to {MAX_RACERS} (default {MAX_RACERS})",
    starts_in=f"Minutes until it starts by itself, {MIN_LOBBY_MINUTES} to {MAX_LOBBY_MINUTES} "
    f"(default {DEFAULT_LOBBY_MINUTES})",
    computer="Race the computer too: a player who can't see the stock either, and can lose",
    computer_pace=f"Seconds between the computer's moves, {MIN_PACE_S} to {MAX_PACE_S} "
    f"(default {DEFAULT_PACE_S})",
)
async def race(
    interaction: Interaction,
    deal: app_commands.Transform[int, DealNumber] | None = None,
    minutes: app_commands.Range[int, MIN_LIMIT_MINUTES, MAX_LIMIT_MINUTES] = DEFAULT_LIMIT_MINUTES,
    players: app_commands.Range[int, MIN_RACERS, MAX_RACERS] = MAX_RACERS,
    starts_in: app_commands.Range[
        int, MIN_LOBBY_MINUTES, MAX_LOBBY_MINUTES
    ] = DEFAULT_LOBBY_MINUTES,
    computer: bool = False,
    computer_pace: app_commands.Range[int, MIN_PACE_S, MAX_PACE_S] = DEFAULT_PACE_S,
) -> None:
    channel = interaction.channel_id
    if channel is None or interaction.guild_id is None:
        await send_error(interaction, "Races are run in a server's channel, not in DMs.")
        return
    races = service_of(interaction).races
    opening = races.open(
        interaction.user.id,
        interaction.guild_id,
        channel,
        deal,
        limit_minutes=minutes,
        capacity=players,
        lobby_minutes=starts_in,
        computer_pace_s=computer_pace if computer else None,
    )
    view = await within_deadline(interaction, opening, new_message=True)
    await send_public(interaction, race_embed(view), race_view(view), new_message=True)
    message = await interaction.original_response()
    races_of(interaction).joined(view.race_id, interaction)
    with contextlib.suppress(ServiceError):
        await races.set_message(view.race_id, message.id)


def race_command() -> app_commands.Command[Any, Any, None]:
    """``/reel race``, a new command object for each group (each bot)."""
    return app_commands.Command(
        name="race",
        description="Open a race here: everyone plays the same deal, fastest to finish wins",
        callback=race,
    )


# --------------------------------------------------------------------------- standings


@dataclass(eq=False)
class _Channel:
    """The standings of one channel to redraw: the races marked, the last edit's time."""

    dirty: dict[int, None] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    last_edit: float = float("-inf")
    task: asyncio.Task[None] | None = None


class Races(Feature, name=RACES_COG):
    """The races extension's cog (``extensions/races``): a bot's races in Discord. Its
    items (the lobby's, the standings' and a racer's board buttons; a racer's menu is a
    ``views.MoveMenu``, which plays through ``play_move``), ``/reel race``, and its state:
    the standings' publisher, the ticker, and the join interactions through which the
    racers' boards are sent at the start."""

    items = (RaceButton, RaceBoardButton)

    def __init__(self, bot: Bot, service: GameService) -> None:
        super().__init__(bot)
        self.service = service
        self.channels: dict[int, _Channel] = {}
        self.edits: list[tuple[float, int]] = []  # (monotonic time, channel): for benches
        self._joins: dict[tuple[int, int], tuple[float, Interaction]] = {}
        self._ticker: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    def subcommands(self) -> list[Subcommand]:
        return [race_command()]

    async def cog_load(self) -> None:
        await super().cog_load()
        self.service.races.on_change(self.changed)
        self._ticker = asyncio.get_running_loop().create_task(self._tick(), name="race-ticker")

    async def cog_unload(self) -> None:
        """The bot closes (or the extension is unloaded): the ticker and every redraw
        still under way end here, not against a closed session later."""
        ticker, self._ticker = self._ticker, None
        if ticker is not None:
            ticker.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await super().cog_unload()

    async def play_move(
        self, interaction: Interaction, race_id: int, owner: int, version: int, move: str
    ) -> None:
        """A move picked in a racer's menu (``views.MoveMenu``): ``board_click``."""
        await board_click(interaction, race_id, owner, version, "move", move)

    async def redraw_stale(self, interaction: Interaction, race_id: int, owner: int) -> None:
        """A racer's menu on an out-of-date board (``views.MoveMenu``): ``redraw_stale``."""
        await redraw_stale(interaction, race_id, owner)

    def joined(self, race_id: int, interaction: Interaction) -> None:
        """Keep a racer's join (or open) interaction: their board is sent through it."""
        now = time.monotonic()
        self._joins = {k: v for k, v in self._joins.items() if now - v[0] < TOKEN_LIFE}
        self._joins[(race_id, interaction.user.id)] = (now, interaction)

    async def send_boards(self, races: Any, race_id: int, skip: int | None = None) -> None:
        """Send each racer their board privately, through their join while it lives."""
        view = await races.standings(race_id)
        if view.state != "running":
            return
        sends = []
        now = time.monotonic()
        for line in view.racers:
            kept = self._joins.pop((race_id, line.user_id), None)
            if kept is None or line.user_id == skip or now - kept[0] >= TOKEN_LIFE:
                continue
            sends.append(self._send_board(races, race_id, line.user_id, kept[1]))
        await asyncio.gather(*sends)

    async def _send_board(self, races: Any, race_id: int, user: int, via: Interaction) -> None:
        try:
            board = await races.board(race_id, user)
            await via.followup.send(
                embed=race_board_embed(board),
                view=race_board_view(board),
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
        except (discord.HTTPException, ServiceError) as exc:
            log.warning("race %s: the board of %s was not sent: %s", race_id, user, exc)

    async def announce(self, race_id: int) -> None:
        """Post the standings of a race opened elsewhere (an Activity's room) in its
        channel, as ``/reel race`` does; redrawn from then on like any race's."""
        view = await self.service.races.standings(race_id)
        if view.message_id is not None:
            return
        channel = self.bot.get_partial_messageable(view.channel_id)
        message = await channel.send(
            embed=race_embed(view), view=race_view(view), allowed_mentions=NO_PINGS
        )
        await self.service.races.set_message(race_id, message.id)
        self.changed(race_id)

    def changed(self, race_id: int) -> None:
        """A race changed: mark its standings to redraw (never blocks)."""
        self._start(self._mark(race_id))

    def tasks_running(self) -> int:
        """The redraws under way in the background (``cog_unload`` ends them)."""
        return sum(not task.done() for task in self._tasks)

    def _start(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``work`` in the background, tracked: ``cog_unload`` ends it."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _mark(self, race_id: int) -> None:
        try:
            view = await self.service.races.standings(race_id)
        except ServiceError:  # (no interaction here, so no one to refuse: not redrawn)
            return
        channel = self.channels.setdefault(view.channel_id, _Channel())
        channel.dirty[race_id] = None
        channel.wake.set()
        if channel.task is None or channel.task.done():
            channel.task = self._start(self._publish(view.channel_id, channel))

    async def _publish(self, channel_id: int, channel: _Channel) -> None:
        """Redraw the marked standings of a channel, one edit at a time, ``EDIT_EVERY``
        seconds apart at least; ends when nothing is left to draw."""
        while channel.dirty and not self.bot.is_closed():
            wait = channel.last_edit + EDIT_EVERY - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            race_id = next(iter(channel.dirty))
            del channel.dirty[race_id]
            channel.last_edit = time.monotonic()
            await self._draw(channel_id, race_id)

    async def _draw(self, channel_id: int, race_id: int) -> None:
        try:
            view = await self.service.races.standings(race_id)
        except ServiceError:  # (no interaction here, so no one to refuse: not redrawn)
            return
        if view.message_id is None:
            return
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(view.message_id)
        self.edits.append((time.monotonic(), channel_id))
        try:
            await asyncio.wait_for(message.edit(embed=race_embed(view), view=race_view(view)), 20.0)
        except (discord.HTTPException, TimeoutError) as exc:
            log.warning("race %s: the standings were not redrawn: %s", race_id, exc)

    async def _tick(self) -> None:
        """Start and end the races whose time has come; the boards of a started race."""
        races = self.service.races
        with contextlib.suppress(ServiceError):
            for view in await races.open_races():
                self.changed(view.race_id)  # after a restart: drawn as they stand
        while not self.bot.is_closed():
            await asyncio.sleep(TICK)
            try:
                for race_id in await races.due():
                    await self.send_boards(races, race_id)
            except ServiceError as exc:  # (no one to refuse: logged, and tried next tick)
                log.warning("races could not be checked: %s", exc)
            except Exception:
                log.exception("the race ticker failed; it goes on")


def races_of(interaction: Interaction) -> Races:
    """The races' cog of the bot this interaction came to."""
    return cog_of(interaction.client, Races)


async def setup(bot: Bot) -> None:
    """The races on ``bot`` (``extensions/races``)."""
    await bot.add_cog(Races(bot, bot_service(bot)))


async def teardown(bot: Bot) -> None:
    await bot.remove_cog(Races.__cog_name__)
