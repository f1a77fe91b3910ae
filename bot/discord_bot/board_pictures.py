"""The board drawn as a picture in Discord, for a player whose setting says so.

``board_message(view)`` gives the board's embed and, when the player chose the
picture board (``/reel settings board:picture``), the PNG to send with it: the
embed shows it as its image (``attachment://board.png``) in place of the text
board. Boards come from ``bot.pictures.BOARDS``, cached by position and style,
so a refresh or a redraw of the same position is not drawn again; a new one is
drawn in a worker thread (some milliseconds), off the event loop.
"""

from __future__ import annotations

import asyncio
import io
from typing import Final

import discord

from engine import variant_by_code

from ..pictures import BOARDS, board_title, board_words
from ..service import GameView
from .embeds import board_embed

PICTURE_NAME: Final = "board.png"


async def board_picture(view: GameView) -> discord.File | None:
    """The PNG of ``view``'s board as a file to attach, or None for a text board."""
    if not view.picture or not view.position:
        return None
    variant = variant_by_code(view.variant)
    title = board_title(view.deal_number, view.move_count, variant)
    png = await asyncio.to_thread(BOARDS.png, view.position, title)
    words = "The " + board_words(view.deal_number, view.move_count, variant)
    return discord.File(io.BytesIO(png), filename=PICTURE_NAME, description=words)


async def board_message(view: GameView) -> tuple[discord.Embed, discord.File | None]:
    """The board's embed, and its picture when the player draws boards as pictures."""
    picture = await board_picture(view)
    return board_embed(view, None if picture is None else PICTURE_NAME), picture
