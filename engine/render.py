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

from typing import Final

from wcwidth import wcswidth

from .cards import board_code
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


def render(game: Game, symbols: bool = True) -> str:
    """The board as text: rows A-C, reserve with depths, Aces, stock, score, moves."""
    lines: list[str] = []
    deal = f"Deal {game.deal_number}" if game.deal_number is not None else "Position"
    header = f"{deal} · move {game.move_count}"
    if display_width(header) <= MAX_WIDTH:
        lines.append(header)
    else:  # a 19-digit deal number: the move count gets its own line
        lines += [deal, f"Move {game.move_count}"]
    lines.append(" " + "".join(f" {c + 1:<2}" for c in range(game.width)).rstrip())
    for r in range(ROWS):
        cells = []
        for pile in game.row(r):
            if not pile:
                cells.append(SPACE_CELL)
            elif len(pile) == 1 and (pile[0] >> 2) + 1 != r + 2:
                cells.append(MISPLACED_MARK + board_code(pile[0], symbols))
            else:
                cells.append(" " + board_code(pile[-1], symbols))
        lines.append(ROW_LETTERS[r] + "".join(cells))
    reserve = game.reserve
    lines.append(
        "R"
        + "".join(" " + board_code(p[-1], symbols) if p else EMPTY_RESERVE_CELL for p in reserve)
    )
    lines.append(" " + "".join(f"{len(p):>3}" for p in reserve))
    deals = game.deals_left
    stock = f"stock {deals} deal{'s' if deals != 1 else ''}" if deals else "stock empty"
    lines.append(f"Aces {game.aces}/{game.variant.ace_total} · {stock}")
    lines.append(f"Score {game.score}/{game.variant.card_total}")
    lines.append(" ".join(f"{ROW_LETTERS[r]}:{_SEQUENCES[r]}" for r in range(ROWS)))
    lines.append(f"{MISPLACED_MARK}misplaced  --space")
    status = game.status
    if status is Status.WON:
        lines.append("Won! All 104 cards home.")
    elif status is Status.STUCK:
        lines.append("Stuck: no legal move left.")
    return "\n".join(lines)
