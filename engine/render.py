"""Rendering: a pure function from a game to monospace text, at most 30 columns a line.

Thirty display columns is what a Discord code block shows on a phone without
wrapping. Widths are measured with ``wcwidth``, never ``len``. Suits are
letters (``S H D C``) or symbols (``♠ ♥ ♦ ♣``, never followed by the emoji
variation selector). Ten is written ``T`` on the grid to keep cells equal.

    Deal 1 · move 0
      1  2  3  4  5  6  7  8
    A 2♠*9♥ 2♦*K♣ ...          a row: based piles show their top card,
    B 3♥ ...                   misplaced cards carry a star,
    C 4♦ ...                   a space shows --
    R 7♣ J♥ ...                the reserve's top cards,
        1  1  1 ...            and how deep each reserve pile is
"""

from __future__ import annotations

from functools import cache
from typing import Final

from wcwidth import wcswidth

from .cards import CARD_COUNT, board_code
from .game import Game, Status
from .variant import ROW_LETTERS, ROWS

MAX_WIDTH: Final = 30
MISPLACED_MARK: Final = "*"
SPACE_CELL: Final = " --"
EMPTY_RESERVE_CELL: Final = "  ."
_SEQUENCES: Final = ("2-5-8-J", "3-6-9-Q", "4-7-T-K")


def display_width(line: str) -> int:
    """Columns a line takes in a monospace font (wide characters count two)."""
    width = wcswidth(line)
    if width < 0:
        raise ValueError(f"line has a non-printable character: {line!r}")
    return width


_CELLS: Final = {
    symbols: (
        tuple(" " + board_code(card, symbols) for card in range(CARD_COUNT)),
        tuple(MISPLACED_MARK + board_code(card, symbols) for card in range(CARD_COUNT)),
    )
    for symbols in (True, False)
}  # per suit mode: the cell of a card on top of a pile, and of a misplaced card
_DEPTHS: Final = tuple(f"{n:>3}" for n in range(3 * CARD_COUNT + 1))  # a reserve pile's depth
_KEY: Final = " ".join(f"{ROW_LETTERS[r]}:{_SEQUENCES[r]}" for r in range(ROWS))
_LEGEND: Final = f"{MISPLACED_MARK}misplaced  --space"


@cache
def _column_heads(width: int) -> str:
    return " " + "".join(f" {c + 1:<2}" for c in range(width)).rstrip()


def render(game: Game, symbols: bool = True) -> str:
    """The board as text: rows A-C, reserve with depths, Aces, stock, score, moves."""
    lines: list[str] = []
    deal = f"Deal {game.deal_number}" if game.deal_number is not None else "Position"
    header = f"{deal} · move {game.move_count}"
    # Every character of the header is one column wide (digits, ASCII, "·"),
    # so its length is its display width.
    if len(header) <= MAX_WIDTH:
        lines.append(header)
    else:  # a 19-digit deal number: the move count gets its own line
        lines += [deal, f"Move {game.move_count}"]
    width = game.width
    lines.append(_column_heads(width))
    top, misplaced = _CELLS[bool(symbols)]
    rows = game._rows  # read only: the board is drawn straight from the piles
    for r in range(ROWS):
        base = r + 1  # card >> 2 of this row's base
        cells = [ROW_LETTERS[r]]
        for pile in rows[r * width : (r + 1) * width]:
            if not pile:
                cells.append(SPACE_CELL)
            elif len(pile) == 1 and pile[0] >> 2 != base:
                cells.append(misplaced[pile[0]])
            else:
                cells.append(top[pile[-1]])
        lines.append("".join(cells))
    reserve = game._reserve
    lines.append("R" + "".join(top[p[-1]] if p else EMPTY_RESERVE_CELL for p in reserve))
    lines.append(" " + "".join(_DEPTHS[len(p)] for p in reserve))
    deals = game.deals_left
    stock = f"stock {deals} deal{'s' if deals != 1 else ''}" if deals else "stock empty"
    variant = game.variant
    lines.append(f"Aces {game.aces}/{variant.ace_total} · {stock}")
    lines.append(f"Score {game.score}/{variant.card_total}")
    lines.append(_KEY)
    lines.append(_LEGEND)
    status = game.status
    if status is Status.WON:
        lines.append("Won! All 104 cards home.")
    elif status is Status.STUCK:
        lines.append("Stuck: no legal move left.")
    return "\n".join(lines)
