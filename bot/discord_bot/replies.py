"""Replies: answering an interaction in time, publicly with a board or privately with an error.

Discord drops an interaction that gets no answer within 3 seconds. The
service is fast, but a slow disk must not cost a player their click:
``within_deadline`` runs the service call and, if it has not finished after
``DEFER_AFTER`` seconds, defers the interaction first (a "thinking" reply for a
slash command, a deferred update for a button). The reply helpers here and in
``views`` then answer through whichever path is still open. Every message
goes out with ``NO_PINGS``: names are shown as mentions, which must never ping.
A hint (``/reel hint`` and the board's Hint button) is the exception to
waiting: the solver may think for a few seconds (the hint's deadline, after
which the service answers with a rule of thumb's move), so ``views.send_hint``
defers at once, and fills the message in within ``views.HINT_PATIENCE`` seconds
whatever happens. The player's other commands meanwhile are answered as usual:
the service searches without the player's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final, TypeVar

import discord

from ..service import Commands, GameService, ServiceError, StaleVersionError
from ..service.cooldown import Cooldown, slow_down
from .embeds import error_embed
from .features import bot_service
from .gate import RESTARTING, Gate
from .metering import answered, begin, said

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFER_AFTER: Final = 1.5
"""Seconds a service call may take before the interaction is deferred (Discord allows 3)."""

Interaction = discord.Interaction[discord.Client]

Redraw = Callable[[StaleVersionError], Awaitable[None]]
"""What answers a call refused because the game changed since it was shown (``refuse``)."""

NO_PINGS: Final = discord.AllowedMentions.none()
"""Sent with every message: a mention shows a name and pings nobody."""

THINKING: Final = "reel_thinking"
"""Set in ``Interaction.extras`` when a slash command is deferred with a public "thinking…"."""

FILLED: Final = "reel_filled"
"""Set in ``Interaction.extras`` once a deferred answer has been filled in (by a board)."""

ANSWERED_PRIVATELY: Final = "Answered privately."
"""Shown for a moment in place of "thinking…" before a slow answer goes out privately."""

DISCORD_COMMANDS: Final = Commands(new="/reel new", resign="/reel resign")
"""How the service's messages name the commands here."""

DEFAULT_PAGE_SIZE: Final = 10
"""Rows on a leaderboard page, unless the bot was built with another page size."""


def refusal(exc: ServiceError) -> str:
    """A refusal's sentence for the player, naming the slash commands."""
    return exc.text(DISCORD_COMMANDS)


def service_of(interaction: Interaction) -> GameService:
    """The game service of the bot this interaction came to."""
    return bot_service(interaction.client)


def page_size_of(interaction: Interaction) -> int:
    """Rows per leaderboard page for the bot this interaction came to."""
    size = getattr(interaction.client, "leaderboard_page_size", DEFAULT_PAGE_SIZE)
    return size if isinstance(size, int) and size > 0 else DEFAULT_PAGE_SIZE


async def stopping(interaction: Interaction) -> bool:
    """Whether the bot is stopping (its ``gate`` closed): if so the user is told privately
    (an autocomplete gets no lines), and the action must not be done. Either way the
    interaction's task counts as in flight until it ends, so a stop waits for it."""
    begin(interaction)  # metered from here (metering.py)
    gate = getattr(interaction.client, "gate", None)
    if not isinstance(gate, Gate) or gate.enter():
        return False
    said(interaction, "stopping")
    with contextlib.suppress(discord.HTTPException):
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await send_error(interaction, RESTARTING)
    return True


async def too_fast(interaction: Interaction) -> bool:
    """Whether the user is over the bot's cooldown (``cooldown``): if so they are told
    privately how long to wait, and the action must not be done."""
    cooldown = getattr(interaction.client, "cooldown", None)
    if not isinstance(cooldown, Cooldown):
        return False
    wait = cooldown.take(interaction.user.id)
    if not wait:
        return False
    said(interaction, "slowed")
    with contextlib.suppress(discord.HTTPException):
        await send_error(interaction, slow_down(wait))
    return True


async def within_deadline(
    interaction: Interaction, work: Coroutine[Any, Any, T], *, new_message: bool = False
) -> T:
    """Await ``work``; if it is slow, defer the interaction first so Discord keeps waiting.

    ``new_message``: a button's answer is a new message (``send_public``), not its
    own message updated, so a slow one is deferred as a public "thinking…"."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        if interaction.type is discord.InteractionType.component and not new_message:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True)
            interaction.extras[THINKING] = True
        answered(interaction)
    return await task


async def send_public(
    interaction: Interaction,
    embed: discord.Embed,
    view: discord.ui.View,
    *,
    new_message: bool = False,
    attachments: list[discord.File] | None = None,
) -> None:
    """Show ``embed`` with its buttons publicly: a slash command's answer, or the message
    whose button was clicked, edited in place (through whichever path is still open).
    ``new_message``: a button's answer goes out as a message of its own (the clicked
    one may be private), as with ``within_deadline(..., new_message=True)``.
    ``attachments``: the files the message carries from now on (a board's picture;
    ``[]`` removes an earlier one); None leaves an edited message's files as they are."""
    files: dict[str, Any] = {} if attachments is None else {"attachments": attachments}
    if interaction.response.is_done():
        await interaction.edit_original_response(
            embed=embed, view=view, allowed_mentions=NO_PINGS, **files
        )
        interaction.extras[FILLED] = True
    elif interaction.type is discord.InteractionType.component and not new_message:
        await interaction.response.edit_message(
            embed=embed, view=view, allowed_mentions=NO_PINGS, **files
        )
        answered(interaction)
    else:
        new = attachments or discord.utils.MISSING  # (no files: the payload as before)
        await interaction.response.send_message(
            embed=embed, view=view, allowed_mentions=NO_PINGS, files=new
        )
        answered(interaction)


async def refuse(interaction: Interaction, exc: ServiceError, stale: Redraw | None = None) -> None:
    """Answer a call the service refused, as every command and click is answered: its
    sentence, privately. A ``StaleVersionError`` (the game changed since the board or the
    question was shown; nothing was done) goes to ``stale`` instead, when given: it
    redraws the board as the game now stands (``views.show_current``), or says what the
    item's stale click means; if the game can't even be read for that, that refusal is
    sent. The one place a slash command's refusal (``commands.on_tree_error``) and a
    click's (``run_click``) are answered."""
    if stale is not None and isinstance(exc, StaleVersionError):
        try:
            await stale(exc)
            return
        except ServiceError as again:  # the game as it stands can't be read either
            exc = again
    await send_error(interaction, refusal(exc))


async def run_click(
    interaction: Interaction,
    work: Awaitable[None],
    custom_id: str,
    unexpected: str,
    stale: Redraw | None = None,
) -> None:
    """A button's callback: run ``work``; a refusal goes to its clicker privately, a stale
    board to ``stale`` (``refuse``); if it fails unexpectedly, log it and tell the clicker
    ``unexpected`` privately (a button must never fail silently)."""
    try:
        try:
            await work
        except ServiceError as exc:
            await refuse(interaction, exc, stale)
    except Exception:
        log.exception("button %s failed", custom_id)
        said(interaction, "error")
        with contextlib.suppress(discord.HTTPException):
            await send_error(interaction, unexpected)


async def send_private(
    interaction: Interaction, embed: discord.Embed, view: discord.ui.View | None = None
) -> None:
    """Answer only the person who asked (an ephemeral message), with buttons if ``view``."""
    extra: dict[str, Any] = {} if view is None else {"view": view}
    if not interaction.response.is_done():
        await interaction.response.send_message(
            embed=embed, ephemeral=True, allowed_mentions=NO_PINGS, **extra
        )
        answered(interaction)
        return
    if _thinking(interaction):
        # A slash command deferred publicly still shows "thinking…", and Discord fills
        # that message with the first follow-up, public whatever it asks. So fill it
        # with a line first, answer privately, then remove the line.
        await interaction.edit_original_response(content=ANSWERED_PRIVATELY, embed=None, view=None)
        interaction.extras[FILLED] = True
        await interaction.followup.send(
            embed=embed, ephemeral=True, allowed_mentions=NO_PINGS, **extra
        )
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
        return
    await interaction.followup.send(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS, **extra)


def _thinking(interaction: Interaction) -> bool:
    """Whether the answer so far is a public "thinking…" message not yet filled in
    (a private one, as a hint defers, takes a private follow-up as it is)."""
    return interaction.extras.get(THINKING, False) and not interaction.extras.get(FILLED, False)


async def send_error(interaction: Interaction, message: str) -> None:
    """A refusal or an error, shown only to the person who asked."""
    said(interaction, "refused")
    await send_private(interaction, error_embed(message))
