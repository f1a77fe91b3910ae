"""Rendering: a pure function from a game to monospace text, at most 30 columns a line.

Thirty display columns is what a Discord code block shows on a phone without
wrapping. Widths are measured with ``wcwidth``, never ``len``. Suits are
letters (``S H D C``) or symbols (``♠ ♥ ♦ ♣``, never followed by the emoji
variation selector). Ten is written ``T`` to keep cells equal, as every message writes it.

A row starts with its letter and a space; each pile is then a cell of three
columns: its two-character card and, after it, the misplaced mark ``*`` or a
space. The mark follows the card it marks, like a footnote's, so ``7♠*Q♣``
says 7♠ is misplaced, never Q♣.

    Deal 1 · move 0
      1  2  3  4  5  6  7  8
    A 2♥ 6♦*7♦*J♠*8♠*K♣*7♥*6♣*    a row: based piles show their top card,
    B 3♠ 8♠*6♠*9♠*5♠*T♦*K♥*J♦*    a misplaced card has a star after it,
    C 4♣ A♦*Q♣*T♣*4♥ 4♠ J♠*9♣*    a space shows --
    R J♣ K♠ 5♣ 3♣ 7♣ A♠ 8♣ 9♠     the reserve's top cards (. if empty),
       1  1  1  1  1  1  1  1     and how deep each reserve pile is

Each column number stands over the first column of its cards; a depth ends
under the last. No line ends with a space.

A game of 12 piles a row (Three Up, Big Parade) would need 38 columns, so its
board is drawn in two halves, each a board of six columns of its own: the
column heads 1-6 over rows A-C and reserve piles R1-R6, then the heads 7-12
over A7-C12 and R7-R12. A pile is named as the notation names it, by its row
letter and the number over its column (``A9``, ``R12``). A game of at most 9
piles a row (Virginia Reel's 8) is drawn in one piece.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from wcwidth import wcswidth

from .cards import CARD_COUNT, board_code, make_card
from .game import BUILD_SEQUENCES, Game, Status
from .variant import ROW_LETTERS, ROWS, VIRGINIA_REEL

MAX_WIDTH: Final = 30
MISPLACED_MARK: Final = "*"
SPACE_CELL: Final = "-- "
EMPTY_RESERVE_CELL: Final = " . "
_INDENT: Final = 2  # a row's letter and the space after it


def display_width(line: str) -> int:
    """Columns a line takes in a monospace font (wide characters count two)."""
    width = wcswidth(line)
    if width < 0:
        raise ValueError(f"line has a non-printable character: {line!r}")
    return width


_CELLS: Final = {
    symbols: (
        tuple(board_code(card, symbols) + " " for card in range(CARD_COUNT)),
        tuple(board_code(card, symbols) + MISPLACED_MARK for card in range(CARD_COUNT)),
    )
    for symbols in (True, False)
}  # per suit mode: the cell of a card on top of a pile, and of a misplaced card
# a reserve pile's depth, its last digit under its card's last column: " 9 ", "10 "
_DEPTHS: Final = tuple(f"{n:>2}".ljust(3) for n in range(3 * CARD_COUNT + 1))
_KEY: Final = " ".join(f"{ROW_LETTERS[r]}:{BUILD_SEQUENCES[r]}" for r in range(ROWS))
_LEGENDS: Final = {
    symbols: f"{_CELLS[symbols][1][make_card(7, 0)]} misplaced  {SPACE_CELL}space"
    for symbols in (True, False)
}  # "7♠* misplaced  -- space": the star follows the card it marks
_FITTING: Final = (MAX_WIDTH - _INDENT) // len(SPACE_CELL)  # cells a line holds: 9


@cache
def _column_heads(first: int, stop: int) -> str:
    """The numbers over columns ``first + 1`` to ``stop``, one cell each."""
    return " " * _INDENT + "".join(f"{c + 1:<3}" for c in range(first, stop)).rstrip()


@cache
def _blocks(width: int, reserve_piles: int) -> tuple[tuple[int, int], ...]:
    """The column ranges drawn one under the other: one range if every pile fits a line,
    else the fewest equal ranges that fit (two halves of six for 12 piles)."""
    columns = max(width, reserve_piles)
    count = -(-columns // _FITTING)  # ceiling division
    size = -(-columns // count)
    return tuple((first, min(first + size, columns)) for first in range(0, columns, size))


def render(game: Game, symbols: bool = True) -> str:
    """The board as text: rows A-C, reserve with depths, Aces, stock, score, moves."""
    lines = header_lines(game)
    width = game.width
    reserve = game._reserve
    for first, stop in _blocks(width, len(reserve)):
        lines += _block(game, symbols, first, stop)
    deals = game.deals_left
    stock = f"stock {deals} deal{'s' if deals != 1 else ''}" if deals else "stock empty"
    variant = game.variant
    lines.append(f"Aces {game.aces}/{variant.ace_total} · {stock}")
    lines.append(f"Score {game.score}/{variant.card_total}")
    lines.append(_KEY)
    lines.append(_LEGENDS[bool(symbols)])
    status = game.status
    if status is Status.WON:
        lines.append(f"Won! All {variant.card_total} cards home.")
    elif status is Status.STUCK:
        lines.append("Stuck: no legal move left.")
    return "\n".join(lines)


def header_lines(game: Game) -> list[str]:
    """The board's first line: ``Deal 1 · move 0``, the game named first when it is not
    Virginia Reel (``Three Up · deal 1 · move 0``, as the picture board's title); split
    over lines where it would not fit (a long deal number, a long name)."""
    deal = f"deal {game.deal_number}" if game.deal_number is not None else "position"
    if game.variant.code != VIRGINIA_REEL.code:
        deal = f"{game.variant.name} · {deal}"
    deal = deal[0].upper() + deal[1:]
    move = f"move {game.move_count}"
    # Every character of the header is one column wide (letters, digits, "·"), so its
    # length is its display width.
    if len(f"{deal} · {move}") <= MAX_WIDTH:
        return [f"{deal} · {move}"]
    if len(deal) <= MAX_WIDTH:  # a long deal number: the move count gets its own line
        return [deal, move.capitalize()]
    name, _, number = deal.partition(" · ")
    return [name, number.capitalize(), move.capitalize()]


def _block(game: Game, symbols: bool, first: int, stop: int) -> list[str]:
    """Columns ``first + 1`` to ``stop``: their heads, rows A-C, reserve piles, depths."""
    lines = [_column_heads(first, stop)]
    top, misplaced = _CELLS[bool(symbols)]
    width = game.width
    rows = game._rows  # read only: the board is drawn straight from the piles
    for r in range(ROWS):
        base = r + 1  # card >> 2 of this row's base
        cells = [ROW_LETTERS[r], " "]
        for pile in rows[r * width + first : r * width + min(stop, width)]:
            if not pile:
                cells.append(SPACE_CELL)
            elif len(pile) == 1 and pile[0] >> 2 != base:
                cells.append(misplaced[pile[0]])
            else:
                cells.append(top[pile[-1]])
        lines.append("".join(cells).rstrip())
    reserve = game._reserve[first:stop]
    tops = "".join(top[p[-1]] if p else EMPTY_RESERVE_CELL for p in reserve)
    lines.append(f"R {tops}".rstrip())
    lines.append((" " * _INDENT + "".join(_DEPTHS[len(p)] for p in reserve)).rstrip())
    return lines
