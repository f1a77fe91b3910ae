"""Views: the buttons under a board message, which keep working across restarts.

Each button is a ``BoardButton``, a discord.py ``DynamicItem``: everything it
needs travels in its custom_id, ``reel:<action>:<owner user id>:<game version>``
(at most 55 characters; Discord allows 100), so a bot that restarted still
knows what an old message's button means. A click by anyone but the owner is
refused privately. A click on an out-of-date board (its version is not the
game's) applies nothing: the service raises ``StaleVersionError``, the board is
redrawn as the game now stands, and the player is told why.

A lost game's hint, when the solver found an earlier move from which it
can still be won, carries a ``RewindButton`` ("Undo back to move 5"):
``reel:rewind:<owner>:<game version>:<move count>``. It takes the moves back
in one click and shows the board publicly as a new message, as ``/reel
undo`` does (the hint it sits under is private).

The first row holds at most five buttons (Discord's limit a row): Deal, Undo,
Auto, Refresh, then Hint while the game is in play or New game once it is not.
Below them, while the game is in play, a ``MoveMenu`` lists the legal moves
but the deal (it has its button), most useful first, up to Discord's 25
options: ``reel:play:<owner>:<game version>``, the move's notation as the
option's value. Picking one plays it and redraws the board in place, as a
button does, with the same refusals (someone else's board, an out-of-date
one). With more than 25 moves, its placeholder says so and points to
``/reel move``, which offers them all. A racer's board has the same menu, made for
the race (``race:play:<race>:<owner>:<game version>``, no space warnings): it plays
through the races' cog (``RaceMoves``, ``races.Races``).

The buttons, the menu and the redraws under way (``Redraws``, one record a board message
being redrawn) are the boards extension's cog, ``Boards``.
Hint answers privately, like ``/reel hint`` (``send_hint``). In a
scored daily not yet marked assisted, it first warns privately that a hint
marks the daily assisted on the leaderboard, with a "Show the hint anyway"
button (action ``hint-yes``); that button turns the warning into the hint.

Discord's own faults (``send_board``): discord.py retries a 429 after its
``retry_after`` and a 5xx a few times, on its own; the adapter adds three
things. A board redrawn in place never lands over a newer one: the redraws of
one message go one at a time, and a redraw still waiting (behind a 429) is
dropped when a newer board of that message comes, which is sent instead. A
redraw is given up after ``EDIT_PATIENCE`` seconds, retries included (a hung
call would wait five minutes). And a board that could not be drawn is
logged and, while the interaction still has a way to answer, its player told
privately that the game is saved and ``/reel show`` draws it: the service
stored the game before any board was drawn, so nothing is lost or doubled.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol, get_args, runtime_checkable

import discord

from engine import Status

from ..service import (
    GameService,
    GameView,
    HintView,
    MoveChoice,
    ServiceError,
    StaleVersionError,
)
from .board_pictures import board_message
from .embeds import OPTION_TEXT_LIMIT, OPTIONS_LIMIT, clip, error_embed, hint_embed, info_embed
from .features import RACE_PREFIX, RACES_COG, Bot, Feature, cog_of
from .items import ReelItem
from .launch import LaunchButton
from .metering import answered
from .replies import (
    NO_PINGS,
    Interaction,
    refusal,
    send_error,
    send_private,
    send_public,
    service_of,
    within_deadline,
)

log = logging.getLogger(__name__)

Action = Literal["deal", "undo", "redo", "auto", "refresh", "new", "hint", "hint-yes"]
ACTIONS: Final[tuple[Action, ...]] = get_args(Action)

CUSTOM_ID_PREFIX: Final = "reel"
CUSTOM_ID_TEMPLATE: Final = (
    rf"{CUSTOM_ID_PREFIX}:(?P<action>{'|'.join(ACTIONS)})"
    r":(?P<user_id>[0-9]{1,20}):(?P<version>[0-9]{1,20})"
)
CUSTOM_ID_LIMIT: Final = 100

STALE_BOARD: Final = (
    "That board was out of date, so nothing was done. It now shows your game as it stands: "
    "click again if you still want to."
)
HINT_WARNING: Final = (
    "A hint marks this daily as assisted on the leaderboard (your result gets a *), "
    "and that can't be undone. Do you still want one?"
)
HINT_STALE: Final = (
    "Your game changed while I was thinking, so I gave no hint: ask again on the current board."
)
HINT_TOO_LONG: Final = (
    "I couldn't work out a hint in time, sorry. Your game is as you left it: try again in a moment."
)
HINT_PATIENCE: float = 30.0
"""Seconds a hint's answer may take before its deferred message is filled with
``HINT_TOO_LONG``. The service answers within its own deadline (a few seconds, a rule of
thumb's move at worst); this bounds what nothing else does (a database that hangs), so a
deferred hint is always filled in, whatever the solver and the database do."""
REWIND_STALE: Final = (
    "Your game has changed since that hint, so nothing was undone. "
    "Ask for a hint again if you want to know where it still could be won."
)
ABANDON_GUARD: Final = (
    "You have a newer game in progress, so no new game was started. "
    "This board now shows it; use /reel new to start another on purpose."
)

_LABELS: Final[dict[Action, str]] = {
    "deal": "Deal",
    "undo": "Undo",
    "redo": "Redo",
    "auto": "Auto",
    "refresh": "Refresh",
    "new": "New game",
    "hint": "Hint",
    "hint-yes": "Show the hint anyway",
}
_STYLES: Final[dict[Action, discord.ButtonStyle]] = {
    "deal": discord.ButtonStyle.primary,
    "undo": discord.ButtonStyle.secondary,
    "redo": discord.ButtonStyle.secondary,
    "auto": discord.ButtonStyle.success,
    "refresh": discord.ButtonStyle.secondary,
    "new": discord.ButtonStyle.success,
    "hint": discord.ButtonStyle.secondary,
    "hint-yes": discord.ButtonStyle.danger,
}


def make_custom_id(action: Action, user_id: int, version: int) -> str:
    """``reel:<action>:<user_id>:<version>``, the state a button carries."""
    return f"{CUSTOM_ID_PREFIX}:{action}:{user_id}:{version}"


Button = discord.ui.Button[discord.ui.View]


class BoardButton(ReelItem[Button], template=CUSTOM_ID_TEMPLATE):
    """One button under a board: its action, the owner and the game version it was drawn for."""

    def __init__(
        self,
        action: Action,
        user_id: int,
        version: int,
        *,
        label: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or _LABELS[action],
                style=_STYLES[action],
                custom_id=make_custom_id(action, user_id, version),
                disabled=disabled,
            )
        )
        self.action: Action = action
        self.owner: int = user_id
        self.version = version

    @classmethod
    def from_match(cls, match: re.Match[str]) -> BoardButton:
        action = match["action"]
        assert action in ACTIONS
        return cls(action, int(match["user_id"]), int(match["version"]))

    async def click(self, interaction: Interaction) -> None:
        await handle_click(interaction, self.action, self.owner, self.version)

    async def stale(self, interaction: Interaction, exc: StaleVersionError) -> None:
        notice = ABANDON_GUARD if self.action == "new" else STALE_BOARD
        await show_current(interaction, service_of(interaction), self.owner, notice)


PLAY_TEMPLATE: Final = (
    rf"(?:{CUSTOM_ID_PREFIX}:play|{RACE_PREFIX}:play:(?P<race>[0-9]{{1,20}}))"
    r":(?P<user_id>[0-9]{1,20}):(?P<version>[0-9]{1,20})"
)
"""A menu's custom_id: ``reel:play:<owner>:<version>`` under a player's board,
``race:play:<race id>:<owner>:<version>`` under a racer's."""
MENU_PLACEHOLDER: Final = "Play a move…"
STALE_MOVE: Final = (
    "That board was out of date, so the move was not played. It now shows your game as it "
    "stands: pick again if you still want to."
)

Select = discord.ui.Select[discord.ui.View]


@runtime_checkable
class RaceMoves(Protocol):
    """Where a racer's menu plays its move: the races extension's cog (``races.Races``)."""

    async def play_move(
        self, interaction: Interaction, race_id: int, owner: int, version: int, move: str
    ) -> None: ...

    async def redraw_stale(self, interaction: Interaction, race_id: int, owner: int) -> None: ...


def race_moves(client: discord.Client) -> RaceMoves:
    """The races' cog of ``client``, which plays a racer's menu."""
    cog = client.get_cog(RACES_COG) if isinstance(client, Bot) else None
    if not isinstance(cog, RaceMoves):
        raise RuntimeError("this client has no races: build it with create_bot()")
    return cog


@dataclass(frozen=True, slots=True)
class MenuKind:
    """What a menu of moves is for: a player's game, or a racer's (``race_id``), which
    shows no space warnings and says less when it can't list every move."""

    race_id: int | None = None

    def custom_id(self, user_id: int, version: int) -> str:
        if self.race_id is None:
            return f"{CUSTOM_ID_PREFIX}:play:{user_id}:{version}"
        return f"{RACE_PREFIX}:play:{self.race_id}:{user_id}:{version}"

    def placeholder(self, shown: int, total: int) -> str:
        if shown == total:
            return MENU_PLACEHOLDER
        if self.race_id is not None:
            return f"{MENU_PLACEHOLDER} (/reel move has all)"
        return f"{MENU_PLACEHOLDER} ({shown} of {total}; /reel move has all)"

    def option(self, move: MoveChoice) -> discord.SelectOption:
        note = None if move.note is None or self.race_id is not None else f"⚠ {move.note}"
        return discord.SelectOption(
            label=clip(move.label, OPTION_TEXT_LIMIT),
            value=move.text[:OPTION_TEXT_LIMIT],
            description=None if note is None else clip(note, OPTION_TEXT_LIMIT),
        )


class MoveMenu(ReelItem[Select], template=PLAY_TEMPLATE):
    """The menu of moves under a board in play: the owner and the game version it lists,
    and the race it is for (None: the player's own game)."""

    def __init__(
        self,
        user_id: int,
        version: int,
        moves: tuple[MoveChoice, ...] = (),
        *,
        race_id: int | None = None,
    ) -> None:
        kind = MenuKind(race_id)
        shown = moves[:OPTIONS_LIMIT]
        super().__init__(
            discord.ui.Select(
                custom_id=kind.custom_id(user_id, version),
                placeholder=kind.placeholder(len(shown), len(moves)),
                # (Discord needs one option at least; a menu read back from a click
                # has its options from the message, and none are needed then)
                options=[kind.option(m) for m in shown] or [discord.SelectOption(label="-")],
            )
        )
        self.owner: int = user_id
        self.version, self.race_id = version, race_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> MoveMenu:
        race = None if match["race"] is None else int(match["race"])
        return cls(int(match["user_id"]), int(match["version"]), race_id=race)

    async def click(self, interaction: Interaction) -> None:
        picked = self.item.values[0] if self.item.values else ""
        if self.race_id is None:
            await play_picked(interaction, self.owner, self.version, picked)
            return
        races = race_moves(interaction.client)
        await races.play_move(interaction, self.race_id, self.owner, self.version, picked)

    async def stale(self, interaction: Interaction, exc: StaleVersionError) -> None:
        if self.race_id is None:
            await show_current(interaction, service_of(interaction), self.owner, STALE_MOVE)
            return
        await race_moves(interaction.client).redraw_stale(interaction, self.race_id, self.owner)


async def play_picked(interaction: Interaction, owner: int, version: int, move: str) -> None:
    """A move picked in a board's menu by its owner: played, and the board redrawn in
    place (an out-of-date board is refused, and redrawn as it stands: ``MoveMenu.stale``)."""
    view = await within_deadline(interaction, service_of(interaction).move(owner, move, version))
    await send_board(interaction, view)


REWIND_TEMPLATE: Final = (
    rf"{CUSTOM_ID_PREFIX}:rewind:(?P<user_id>[0-9]{{1,20}}):(?P<version>[0-9]{{1,20}})"
    r":(?P<target>[0-9]{1,6})"
)


class RewindButton(ReelItem[Button], template=REWIND_TEMPLATE):
    """Under a lost game's hint: undo back to the move from which it can still be won."""

    def __init__(self, user_id: int, version: int, target: int, back_to: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Undo back to {back_to}",
                style=discord.ButtonStyle.primary,
                custom_id=f"{CUSTOM_ID_PREFIX}:rewind:{user_id}:{version}:{target}",
            )
        )
        self.owner: int = user_id
        self.version, self.target = version, target

    @classmethod
    def from_match(cls, match: re.Match[str]) -> RewindButton:
        # (the label is Discord's to keep: only the custom_id comes back)
        return cls(int(match["user_id"]), int(match["version"]), int(match["target"]), "")

    async def click(self, interaction: Interaction) -> None:
        await rewind(interaction, self.owner, self.version, self.target)

    async def stale(self, interaction: Interaction, exc: StaleVersionError) -> None:
        await send_error(interaction, REWIND_STALE)


async def rewind(interaction: Interaction, owner: int, version: int, target: int) -> None:
    """The hint's "Undo back to move N": the moves taken back, the board shown publicly
    as a new message (refused privately if the game changed since: ``RewindButton.stale``)."""
    undo = service_of(interaction).undo_to(owner, target, expected_version=version)
    await board_as_new_message(interaction, undo)


async def board_as_new_message(
    interaction: Interaction, work: Coroutine[Any, Any, GameView]
) -> None:
    """A private message's button: run ``work`` and show its board publicly, as a new
    message (its refusal goes to the clicker privately: ``replies.run_click``; the item's
    ``stale`` says what a game changed since the message means)."""
    view = await within_deadline(interaction, work, new_message=True)
    embed, picture = await board_message(view)
    files = [] if picture is None else [picture]
    await send_public(interaction, embed, board_view(view), new_message=True, attachments=files)


def hint_view(answer: HintView) -> discord.ui.View | None:
    """The button under a hint: for a lost game that could still be won earlier, undo
    back to there; otherwise none."""
    back, back_to = answer.winnable_at, answer.back_to
    if answer.source != "lost" or back is None or back_to is None or not answer.game.can_undo:
        return None
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(RewindButton(answer.game.user_id, answer.game.version, back, back_to))
    return buttons


async def hint_answer(
    service: GameService, user_id: int, expected_version: int | None = None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The hint for ``user_id``'s game as an embed and its button (``hint_view``), or the
    refusal; the game is marked assisted.

    ``expected_version``: the board's version (a button); a game that changed
    since gets no hint and is not marked. Within ``HINT_PATIENCE`` seconds, whatever
    happens: then an apology.
    """
    # Not left to the central refusal (``replies.refuse``): a hint's answer fills the
    # message deferred for it (or the warning it replaces), and a stale hint is no board
    # to redraw (nothing was shown or marked).
    try:
        async with asyncio.timeout(HINT_PATIENCE):
            answer = await service.hint(user_id, expected_version)
    except TimeoutError:
        log.error(
            "the hint for user %s took over %s s: answered without it", user_id, HINT_PATIENCE
        )
        return error_embed(HINT_TOO_LONG), None
    except StaleVersionError:
        return error_embed(HINT_STALE), None
    except ServiceError as exc:
        return error_embed(refusal(exc)), None
    return hint_embed(answer), hint_view(answer)


async def send_hint(
    interaction: Interaction, user_id: int, expected_version: int | None = None
) -> None:
    """Answer with the hint privately: defer at once (the solver may think for a few
    seconds, the hint's deadline), then fill in the "thinking" message (``hint_answer``)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
        answered(interaction)
    embed, buttons = await hint_answer(service_of(interaction), user_id, expected_version)
    extra: dict[str, Any] = {} if buttons is None else {"view": buttons}
    await interaction.followup.send(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS, **extra)


def board_view(view: GameView) -> discord.ui.View:
    """The buttons for a board: each disabled when it can't act; the last is Hint while
    the game is in play, New game once it is over or stuck, then Play on the board (a
    second row, as Discord puts five buttons in a row)."""
    finished = view.finished
    uid, ver = view.user_id, view.version
    deal_label = f"Deal ({view.deals_left} left)" if view.deals_left else "Deal"
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(
        BoardButton("deal", uid, ver, label=deal_label, disabled=finished or not view.can_deal)
    )
    buttons.add_item(BoardButton("undo", uid, ver, disabled=finished or not view.can_undo))
    buttons.add_item(BoardButton("redo", uid, ver, disabled=finished or not view.can_redo))
    buttons.add_item(BoardButton("auto", uid, ver, disabled=finished or not view.can_auto))
    buttons.add_item(BoardButton("refresh", uid, ver, disabled=finished))
    if finished or view.status is not Status.PLAYING:
        buttons.add_item(BoardButton("new", uid, ver))
    else:
        buttons.add_item(BoardButton("hint", uid, ver))
    buttons.add_item(LaunchButton())  # the same board in a browser, as an Activity
    if view.moves:
        buttons.add_item(MoveMenu(uid, ver, view.moves))
    return buttons


def hint_warning_view(view: GameView) -> discord.ui.View:
    """The one button under the private warning that a hint marks the daily assisted."""
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(BoardButton("hint-yes", view.user_id, view.version))
    return buttons


EDIT_PATIENCE: float = 20.0
"""Seconds a board may take to reach Discord, discord.py's retries of a 429 or a 5xx
included, before it is given up (aiohttp would wait five minutes for a hung call)."""

REDRAW_WAIT: Final = 0.5
"""Seconds a click's answer may wait for another redraw of its board to finish (in a few
milliseconds, unless Discord holds it up) before the click is deferred instead."""

BOARD_NOT_SHOWN: Final = (
    "Discord did not take the new board just now, so the one you see may be out of date. "
    "Your game is saved: /reel show draws it as it stands."
)


@dataclass(eq=False)
class MessageRedraws:
    """The redraws of one board message under way: one at a time, the newest wins."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    newest: int = 0  # the ticket of the newest board asked for
    waiting: asyncio.Future[None] | None = None  # a redraw not yet sent: a newer one drops it
    users: int = 0  # the redraws that hold this record


@dataclass(eq=False)
class Redraws:
    """A bot's board messages being redrawn, by message id (an entry lives while a redraw
    does), and the tickets its boards take in the order the service answered: a player's
    calls run one at a time (the service holds the player's lock), and a board takes its
    ticket the moment its call returns."""

    messages: dict[int, MessageRedraws] = field(default_factory=dict)
    tickets: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def take(self, message_id: int) -> tuple[MessageRedraws, int]:
        """The record of ``message_id``'s redraws, held, and the new board's ticket (the
        newest); a redraw of it still waiting is dropped."""
        board = self.messages.setdefault(message_id, MessageRedraws())
        ticket = next(self.tickets)
        board.newest, board.users = ticket, board.users + 1
        if board.waiting is not None:
            board.waiting.cancel()
        return board, ticket

    def release(self, message_id: int, board: MessageRedraws) -> None:
        board.users -= 1
        if not board.users:
            del self.messages[message_id]


class Boards(Feature):
    """The boards extension's cog (``extensions/boards``): the board's buttons and menu,
    the hint's Undo back, and the redraws of the board messages under way."""

    items = (BoardButton, MoveMenu, RewindButton)

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot)
        self.redraws = Redraws()


async def setup(bot: Bot) -> None:
    await bot.add_cog(Boards(bot))


async def teardown(bot: Bot) -> None:
    await bot.remove_cog(Boards.__cog_name__)


async def send_board(interaction: Interaction, view: GameView) -> None:
    """Show the board publicly with its buttons: a slash command's answer, or the clicked
    board redrawn in place (``redraw``). A board Discord does not take (a 429 storm, 5xx
    answers, a hung call) is logged, and its player told privately while the interaction
    can still answer; the game itself was saved before."""
    (embed, picture), buttons = await board_message(view), board_view(view)
    files = [] if picture is None else [picture]  # a text board drops an earlier picture
    message = interaction.message
    try:
        if interaction.type is discord.InteractionType.component and message is not None:
            await redraw(interaction, message.id, embed, buttons, files)
        else:
            await _patiently(send_public(interaction, embed, buttons, attachments=files))
    except (discord.HTTPException, TimeoutError) as exc:
        log.warning(
            "the board of user %s (version %s) was not shown: %s",
            view.user_id,
            view.version,
            exc if isinstance(exc, discord.HTTPException) else "no answer in time",
        )
        if interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException, TimeoutError):
                await _patiently(send_error(interaction, BOARD_NOT_SHOWN))


async def redraw(
    interaction: Interaction,
    message_id: int,
    embed: discord.Embed,
    buttons: discord.ui.View,
    files: list[discord.File] | None = None,
) -> None:
    """Redraw the clicked board message ``message_id`` in place, never over a newer board
    (``files``: the board's picture, or ``[]``; None leaves the message's files alone).

    A newer redraw of the same message drops one still waiting to be sent (behind a 429
    its retry would land late, over the newer board). The answer to the click is the
    redraw itself when no other is under way or the other ends within ``REDRAW_WAIT``;
    else the click is acknowledged at once and its board sent after the other, unless a
    newer one came meanwhile. Returns quietly when a newer board replaced this one."""
    redraws = cog_of(interaction.client, Boards).redraws
    board, ticket = redraws.take(message_id)
    try:
        if not interaction.response.is_done():
            if await _acquired(board.lock, REDRAW_WAIT):
                try:
                    if board.newest == ticket:
                        edit = interaction.response.edit_message(
                            embed=embed, view=buttons, allowed_mentions=NO_PINGS, **_files(files)
                        )
                        await _patiently(edit)
                        answered(interaction)
                        return
                finally:
                    board.lock.release()
            # A newer board is on its way, or another redraw is slow (behind a 429):
            # answer the click now, draw the board later.
            await interaction.response.defer()
            answered(interaction)
        later = asyncio.ensure_future(
            _redraw_if_newest(interaction, board, ticket, embed, buttons, files)
        )
        board.waiting = later
        try:
            await asyncio.wait({later})
        except asyncio.CancelledError:
            later.cancel()
            raise
        finally:
            if board.waiting is later:
                board.waiting = None
        if not later.cancelled():
            later.result()
    finally:
        redraws.release(message_id, board)


async def _redraw_if_newest(
    interaction: Interaction,
    board: MessageRedraws,
    ticket: int,
    embed: discord.Embed,
    buttons: discord.ui.View,
    files: list[discord.File] | None = None,
) -> None:
    async with board.lock:
        if board.newest != ticket:
            return  # a newer board of this message is on its way
        await _patiently(
            interaction.edit_original_response(
                embed=embed, view=buttons, allowed_mentions=NO_PINGS, **_files(files)
            )
        )


def _files(files: list[discord.File] | None) -> dict[str, Any]:
    """The ``attachments`` argument of an edit: the message's files from now on, if given."""
    return {} if files is None else {"attachments": files}


async def _acquired(lock: asyncio.Lock, seconds: float) -> bool:
    """Whether ``lock`` was acquired within ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            await lock.acquire()
    except TimeoutError:
        return False
    return True


async def _patiently(call: Coroutine[Any, Any, Any]) -> None:
    """Await a call to Discord for ``EDIT_PATIENCE`` seconds at most (TimeoutError)."""
    await asyncio.wait_for(call, EDIT_PATIENCE)


async def handle_click(interaction: Interaction, action: Action, owner: int, version: int) -> None:
    """A board button was clicked by its owner: call the service, redraw the board (a
    stale board is redrawn as the game stands: ``BoardButton.stale``)."""
    service = service_of(interaction)
    if action == "hint":
        await _hint(interaction, service, owner, version)
        return
    if action == "hint-yes":
        await _hint_confirmed(interaction, service, owner, version)
        return
    if action == "refresh":
        view = await within_deadline(interaction, service.show(owner))
    elif action == "new":
        # Not over a game the board never showed (a second click, another board).
        new_game = service.new_game(owner, interaction.guild_id, replaces_version=version)
        view = await within_deadline(interaction, new_game)
    else:
        act = {
            "deal": service.deal,
            "undo": service.undo,
            "redo": service.redo,
            "auto": service.auto,
        }[action]
        view = await within_deadline(interaction, act(owner, expected_version=version))
    await send_board(interaction, view)


async def _hint(interaction: Interaction, service: GameService, owner: int, version: int) -> None:
    """Hint under a board: refused like any button on an out-of-date board; in a scored
    daily not yet assisted, a warning first; else the hint, as ``/reel hint`` gives it."""
    current = await within_deadline(interaction, service.show(owner))
    if current.version != version:
        await _redraw(interaction, current, STALE_BOARD)
        return
    await hint_or_warning(interaction, current, owner, version)


async def hint_or_warning(
    interaction: Interaction, current: GameView | None, owner: int, version: int | None = None
) -> None:
    """The hint, privately; in a scored daily not yet assisted, a warning with a button first
    (the mark can't be undone). ``current``: the game as it stands (None if none)."""
    if current is not None and current.hint_marks_assisted:
        await send_private(interaction, info_embed(HINT_WARNING), hint_warning_view(current))
        return
    await send_hint(interaction, owner, version)


async def _hint_confirmed(
    interaction: Interaction, service: GameService, owner: int, version: int
) -> None:
    """The warning's "Show the hint anyway": the warning becomes the hint (or the refusal,
    if the game changed since) and loses its button."""
    # The solver may think for about a second: acknowledge the click at once.
    await interaction.response.defer()
    answered(interaction)
    embed, buttons = await hint_answer(service, owner, version)
    await interaction.edit_original_response(embed=embed, view=buttons, allowed_mentions=NO_PINGS)


async def show_current(
    interaction: Interaction, service: GameService, owner: int, notice: str
) -> None:
    """Redraw the clicked board (or post it, for a slash command) as the game now stands,
    and tell the owner why privately: what a refusal for a stale version gets
    (``replies.refuse``; a ``ServiceError`` reading the game goes back there)."""
    current = await within_deadline(interaction, service.show(owner))
    await _redraw(interaction, current, notice)


async def _redraw(interaction: Interaction, current: GameView, notice: str) -> None:
    await send_board(interaction, current)
    await send_private(interaction, info_embed(notice))
