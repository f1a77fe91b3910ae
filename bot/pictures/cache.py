"""Rendered boards kept by position and style: a refresh, or a board shown again as it
stood, is a dictionary look-up instead of a new drawing."""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Final

from engine import VIRGINIA_REEL, Variant, parse_position

from .draw import PLAIN, Style, board_png

CACHE_SIZE: Final = 256  # boards kept (about 35 KB each: under 10 MB in all)


class PictureCache:
    """The PNGs of the last ``size`` boards drawn, least recently used dropped first.

    The key is what a board shows: the position string (``engine.format_position``),
    the title line (the game, the deal and the move) and the style."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        if size < 1:
            raise ValueError("a picture cache holds one board at least")
        self.size = size
        self._pngs: OrderedDict[tuple[str, str, Style], bytes] = OrderedDict()
        self._lock = Lock()  # boards may be drawn in worker threads
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._pngs)

    def png(self, position: str, title: str, style: Style = PLAIN) -> bytes:
        """The board of ``position`` under ``title`` as PNG bytes, drawn once."""
        key = (position, title, style)
        with self._lock:
            found = self._pngs.get(key)
            if found is not None:
                self._pngs.move_to_end(key)
                self.hits += 1
                return found
        png = board_png(parse_position(position), title, style)
        with self._lock:
            self.misses += 1
            self._pngs[key] = png
            self._pngs.move_to_end(key)
            while len(self._pngs) > self.size:
                self._pngs.popitem(last=False)
        return png


BOARDS: Final = PictureCache()
"""The process's cache, shared by every front end."""


def board_title(deal_number: int | None, move_count: int, variant: Variant = VIRGINIA_REEL) -> str:
    """The board's first line: as the text board has it for Virginia Reel (``Deal 1 ·
    move 0``), the game named first for another (``Three Up · deal 1 · move 0``)."""
    deal = f"deal {deal_number}" if deal_number is not None else "position"
    if variant.code == VIRGINIA_REEL.code:
        return f"{deal.capitalize()} · move {move_count}"
    return f"{variant.name} · {deal} · move {move_count}"


def board_words(deal_number: int | None, move_count: int, variant: Variant = VIRGINIA_REEL) -> str:
    """The board in words, for an alt text or a message: ``board of deal 1 at move 0``,
    ``board of Three Up deal 1 at move 0`` (the game named when not Virginia Reel)."""
    deal = f"deal {deal_number}" if deal_number is not None else "a position"
    if variant.code != VIRGINIA_REEL.code:
        deal = f"{variant.name} {deal}" if deal_number is not None else f"a {variant.name} position"
    return f"board of {deal} at move {move_count}"
