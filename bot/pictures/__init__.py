"""The board drawn as a picture (PNG) with Pillow, for the front ends (``docs/pictures.md``).

``board_png(game, title)`` draws a position; ``BOARDS.png(position, title)`` does
it once per position string and style (an LRU cache). Only the front ends import
this package: the engine stays free of Pillow, the store and the service never draw.
"""

from .cache import BOARDS, CACHE_SIZE, PictureCache, board_title, board_words
from .draw import FONTS, KEYED, PLAIN, Style, board_png, cards_on_view, draw_board, key_colour

__all__ = [
    "BOARDS",
    "CACHE_SIZE",
    "FONTS",
    "KEYED",
    "PLAIN",
    "PictureCache",
    "Style",
    "board_png",
    "board_title",
    "board_words",
    "cards_on_view",
    "draw_board",
    "key_colour",
]
