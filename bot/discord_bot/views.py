"""Views: the buttons under a board message, which keep working across restarts.

Each button is a ``BoardButton``, a discord.py ``DynamicItem``: everything it
needs travels in its custom_id, ``reel:<action>:<owner user id>:<game version>``
(at most 55 characters; Discord allows 100), so a bot that restarted still
knows what an old message's button means. A click by anyone but the owner is
refused privately. A click on an out-of-date board (its version is not the
game's) applies nothing: the service raises ``StaleVersionError``, the board is
redrawn as the game now stands, and the player is told why.
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any, Final, Literal, get_args

import discord

from engine import Status

from ..service import GameService, GameView, NoGameError, ServiceError, StaleVersionError
from .embeds import board_embed, info_embed
from .replies import (
    NO_PINGS,
    Interaction,
    send_error,
    send_private,
    service_of,
    within_deadline,
)

log = logging.getLogger(__name__)

Action = Literal["deal", "undo", "auto", "refresh", "new"]
ACTIONS: Final[tuple[Action, ...]] = get_args(Action)

CUSTOM_ID_PREFIX: Final = "reel"
CUSTOM_ID_TEMPLATE: Final = (
    rf"{CUSTOM_ID_PREFIX}:(?P<action>{'|'.join(ACTIONS)})"
    r":(?P<user_id>[0-9]{1,20}):(?P<version>[0-9]{1,20})"
)
CUSTOM_ID_LIMIT: Final = 100

NOT_YOUR_GAME: Final = "This is not your game — start your own with /reel new."
STALE_BOARD: Final = (
    "That board was out of date, so nothing was done. It now shows your game as it stands: "
    "click again if you still want to."
)
UNEXPECTED: Final = "Something went wrong on my side and I couldn't do that. Please try again."
ABANDON_GUARD: Final = (
    "You have a newer game in progress, so no new game was started. "
    "This board now shows it; use /reel new to start another on purpose."
)

_LABELS: Final[dict[Action, str]] = {
    "deal": "Deal",
    "undo": "Undo",
    "auto": "Auto",
    "refresh": "Refresh",
    "new": "New game",
}
_STYLES: Final[dict[Action, discord.ButtonStyle]] = {
    "deal": discord.ButtonStyle.primary,
    "undo": discord.ButtonStyle.secondary,
    "auto": discord.ButtonStyle.success,
    "refresh": discord.ButtonStyle.secondary,
    "new": discord.ButtonStyle.success,
}


def make_custom_id(action: Action, user_id: int, version: int) -> str:
    """``reel:<action>:<user_id>:<version>``, the state a button carries."""
    return f"{CUSTOM_ID_PREFIX}:{action}:{user_id}:{version}"


def parse_custom_id(custom_id: str) -> tuple[Action, int, int] | None:
    """``(action, user_id, version)`` from a board button's custom_id, or None if it is not one."""
    match = BoardButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    if match is None:
        return None
    return _from_match(match)


def _from_match(match: re.Match[str]) -> tuple[Action, int, int]:
    action = match["action"]
    assert action in ACTIONS
    return action, int(match["user_id"]), int(match["version"])


Button = discord.ui.Button[discord.ui.View]


class BoardButton(discord.ui.DynamicItem[Button], template=CUSTOM_ID_TEMPLATE):
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
        self.user_id = user_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BoardButton:
        return cls(*_from_match(match))

    async def callback(self, interaction: Interaction) -> None:
        try:
            await handle_click(interaction, self.action, self.user_id, self.version)
        except Exception:
            log.exception("board button %s failed", self.custom_id)
            with contextlib.suppress(discord.HTTPException):
                await send_error(interaction, UNEXPECTED)


def board_view(view: GameView) -> discord.ui.View:
    """The buttons for a board: each disabled when it can't act; New game once the game is over."""
    finished = view.finished
    uid, ver = view.user_id, view.version
    deal_label = f"Deal ({view.deals_left} left)" if view.deals_left else "Deal"
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(
        BoardButton("deal", uid, ver, label=deal_label, disabled=finished or not view.can_deal)
    )
    buttons.add_item(BoardButton("undo", uid, ver, disabled=finished or not view.can_undo))
    buttons.add_item(BoardButton("auto", uid, ver, disabled=finished or not view.can_auto))
    buttons.add_item(BoardButton("refresh", uid, ver, disabled=finished))
    if finished or view.status is not Status.PLAYING:
        buttons.add_item(BoardButton("new", uid, ver))
    return buttons


async def send_board(interaction: Interaction, view: GameView) -> None:
    """Post the board publicly (a slash command's answer), with its buttons."""
    embed, buttons = board_embed(view), board_view(view)
    if interaction.response.is_done():
        await interaction.edit_original_response(
            embed=embed, view=buttons, allowed_mentions=NO_PINGS
        )
    else:
        await interaction.response.send_message(
            embed=embed, view=buttons, allowed_mentions=NO_PINGS
        )


async def update_board(interaction: Interaction, view: GameView) -> None:
    """Show ``view`` in the message whose button was clicked, edited in place."""
    embed, buttons = board_embed(view), board_view(view)
    if interaction.response.is_done():
        await interaction.edit_original_response(
            embed=embed, view=buttons, allowed_mentions=NO_PINGS
        )
    else:
        await interaction.response.edit_message(
            embed=embed, view=buttons, allowed_mentions=NO_PINGS
        )


async def handle_click(interaction: Interaction, action: Action, owner: int, version: int) -> None:
    """A board button was clicked: check who clicked, call the service, redraw the board."""
    if interaction.user.id != owner:
        await send_error(interaction, NOT_YOUR_GAME)
        return
    service = service_of(interaction)
    view: GameView | None
    try:
        if action == "refresh":
            view = await within_deadline(interaction, service.show(owner))
        elif action == "new":
            view = await within_deadline(
                interaction, _new_game(service, interaction, owner, version)
            )
        else:
            act = {"deal": service.deal, "undo": service.undo, "auto": service.auto}[action]
            view = await within_deadline(interaction, act(owner, expected_version=version))
    except StaleVersionError:
        await _show_current(interaction, service, owner, STALE_BOARD)
        return
    except ServiceError as exc:
        await send_error(interaction, exc.message)
        return
    if view is None:
        await _show_current(interaction, service, owner, ABANDON_GUARD)
        return
    await update_board(interaction, view)


async def _new_game(
    service: GameService, interaction: Interaction, owner: int, version: int
) -> GameView | None:
    """A new random deal, unless the owner has since moved on to another unfinished game
    (the button would then abandon a game this board never showed): None."""
    try:
        current = await service.show(owner)
    except NoGameError:
        current = None
    if current is not None and current.version != version and not current.finished:
        return None
    return await service.new_game(owner, interaction.guild_id)


async def _show_current(
    interaction: Interaction, service: GameService, owner: int, notice: str
) -> None:
    """Redraw the clicked board as the game now stands, and tell the owner why privately."""
    try:
        current = await service.show(owner)
    except ServiceError as exc:
        await send_error(interaction, exc.message)
        return
    await update_board(interaction, current)
    await send_private(interaction, info_embed(notice))
