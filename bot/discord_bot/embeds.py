"""Embeds: pure functions from the game service's answers to Discord embeds.

Nothing here talks to Discord or to the service; every function takes plain
values (a ``GameView``, a message, a list of commands) and returns a
``discord.Embed`` that keeps within Discord's limits: title 256 characters,
description 4096, field name 256 and value 1024, footer 2048, and 6000 for
all of a message's embeds together. The board goes in a code block, whose
lines the engine keeps within 30 columns so phones show it without wrapping.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import discord

from engine import VIRGINIA_REEL, Status

from ..service import GameView, Settings

TITLE_LIMIT: Final = 256
DESCRIPTION_LIMIT: Final = 4096
FIELD_NAME_LIMIT: Final = 256
FIELD_VALUE_LIMIT: Final = 1024
FOOTER_LIMIT: Final = 2048
EMBED_TOTAL_LIMIT: Final = 6000

CARD_TOTAL: Final = VIRGINIA_REEL.card_total

PLAYING_COLOUR: Final = discord.Colour.blurple()
WON_COLOUR: Final = discord.Colour.gold()
STUCK_COLOUR: Final = discord.Colour.red()
OVER_COLOUR: Final = discord.Colour.dark_grey()
ERROR_COLOUR: Final = discord.Colour.red()
INFO_COLOUR: Final = discord.Colour.blurple()

WARNING_FIELD_NAME: Final = "⚠ Space"


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def board_colour(view: GameView) -> discord.Colour:
    """Won: gold; stuck: red; over without a win (resigned): grey; in play: blurple."""
    if view.status is Status.WON:
        return WON_COLOUR
    if view.status is Status.STUCK:
        return STUCK_COLOUR
    if view.finished:
        return OVER_COLOUR
    return PLAYING_COLOUR


def status_line(view: GameView) -> str | None:
    """What the state of the game means for the player, or None while it is in play."""
    if view.status is Status.WON:
        return f"🎉 **You won!** All {CARD_TOTAL} cards are home, in {view.move_count} moves."
    if view.status is Status.STUCK:
        if view.finished:
            return "**Game over:** stuck, no legal move left. Start again with **/reel new**."
        undo = "press **Undo** to go back, or " if view.can_undo else ""
        return f"**Stuck:** no legal move is left. You can {undo}start again with **/reel new**."
    if view.finished:
        return "**Game over.** Start a new one with **/reel new** or the **New game** button."
    return None


def board_footer(view: GameView) -> str:
    """``Deal N · moves M · score S/104``."""
    return f"Deal {view.deal_number} · moves {view.move_count} · score {view.score}/{CARD_TOTAL}"


def board_embed(view: GameView) -> discord.Embed:
    """The board message: whose game, what just happened, the board, the state, the warning."""
    board = f"```\n{view.board}\n```"
    tail = status_line(view)
    head = f"<@{view.user_id}>'s game"
    if view.message:
        head += f" · {discord.utils.escape_markdown(view.message)}"
    fixed = len(board) + (len(tail) + 1 if tail else 0) + 1
    parts = [clip(head, max(DESCRIPTION_LIMIT - fixed, 1)), board]
    if tail:
        parts.append(tail)
    embed = discord.Embed(
        title=clip(f"Virginia Reel · deal {view.deal_number}", TITLE_LIMIT),
        description=clip("\n".join(parts), DESCRIPTION_LIMIT),
        colour=board_colour(view),
    )
    if view.warning:
        warning = clip(view.warning, FIELD_VALUE_LIMIT)
        embed.add_field(name=WARNING_FIELD_NAME, value=warning, inline=False)
    embed.set_footer(text=clip(board_footer(view), FOOTER_LIMIT))
    return embed


def error_embed(message: str) -> discord.Embed:
    """A refusal or an error, in the player's words (sent ephemeral)."""
    return discord.Embed(description=clip(message, DESCRIPTION_LIMIT), colour=ERROR_COLOUR)


def info_embed(message: str, title: str | None = None) -> discord.Embed:
    """A short notice (sent ephemeral)."""
    return discord.Embed(
        title=clip(title, TITLE_LIMIT) if title else None,
        description=clip(message, DESCRIPTION_LIMIT),
        colour=INFO_COLOUR,
    )


def settings_embed(settings: Settings, changed: bool) -> discord.Embed:
    """The player's settings, after a change or on request."""
    suits = "symbols (♠ ♥ ♦ ♣)" if settings.symbols else "letters (S H D C)"
    aces = "on" if settings.auto_aces else "off"
    lines = [
        f"**Suits:** {suits}",
        f"**Automatic Aces:** {aces} (reserve Aces go to the Ace pile after each move)",
    ]
    if changed:
        lines.append("Your next board shows the change.")
    return info_embed("\n".join(lines), "Settings saved" if changed else "Your settings")


RULES_TEXT: Final = (
    "**Goal:** put all 104 cards (two packs) on foundations.\n"
    "**Rows:** row A builds 2-5-8-J, row B 3-6-9-Q, row C 4-7-10-K, each pile in one suit, "
    "four cards high. A pile is *based* when its bottom card is its row's base rank "
    "(a Two in row A, a Three in B, a Four in C); based cards never move again.\n"
    "**Misplaced cards** (marked `*`) sit alone in a row pile that is not based. "
    "Nothing is built on them.\n"
    "**Available cards:** the top card of each reserve pile (R1-R8) and every misplaced card.\n"
    "**Moves:**\n"
    "• **Build** an available card on a based pile of its suit, three ranks higher.\n"
    "• **Fill** a space (`--`) with a Two, Three or Four of that row.\n"
    "• **Interchange** two misplaced cards in different rows when both land in their own rows.\n"
    "• **Ace:** any available Ace goes to the Ace pile.\n"
    "• **Deal** one card onto each reserve pile, only while no row has a space (9 deals).\n"
    "**Spaces:** moving a card out of a row leaves a space; you can't deal until it is filled, "
    "so the bot warns you (⚠) when no card can fill it.\n"
    "**Stuck** when no move is left: undo, or start a new deal."
)


def rules_embed() -> discord.Embed:
    """A short summary of the rules of Virginia Reel."""
    return info_embed(RULES_TEXT, "Virginia Reel: the rules")


HELP_FOOTER: Final = (
    "Moves: `/reel move from:R3 to:A5`, or pick one from the list as you type. "
    "Piles: A1-C8 rows, R1-R8 reserve, ACE. The buttons under a board work only for its player."
)


def help_embed(commands: Iterable[tuple[str, str]]) -> discord.Embed:
    """The command list: ``(name, description)`` pairs, one line each."""
    lines = [f"**{name}**: {description}" for name, description in commands]
    body = "\n".join(lines) + "\n\n" + HELP_FOOTER
    return info_embed(body, "Virginia Reel: commands")
