"""The fixed positions the picture tests draw, and the command that redraws their
reference images after a change of design (look at each one before committing it):

    .venv/bin/python tests/pictures/picture_positions.py --write
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

from bot.pictures import board_png, board_title
from engine import Game, play_line
from engine.variant import THREE_UP

REFERENCE: Final = Path(__file__).resolve().parent / "reference"

# Deal 1 played into a corner: spaces in rows A and C, misplaced cards, empty reserve piles.
STUCK_LINE: Final = "C2 ACE;R5 C1;B3 B1;C4 C1;A7 C5;R4 B3;R6 ACE;R8 B1;A8 B3;C8 B3;A6 C1;C3 B3"
# Deal 28's winning line (tests/bot/known_win.py): at move 70, piles fanned two to four
# cards high, deep reserve piles, one space, misplaced cards; at its end, the win.
WIN_LINE: Final = (
    "R6 ACE;B5 ACE;R8 A1;R2 B5;deal;A7 ACE;R1 B5;R6 C1;R2 A7;deal;B6 ACE;B2 A7;R2 B2;A3 B6;"
    "C8 B6;R3 A3;R3 A3;R1 A3;R4 C8;deal;R4 C1;R1 C1;R7 B1;R1 B1;deal;R1 ACE;R2 C3;R5 B1;"
    "R7 A7;A6 A7;R2 A6;R8 A6;deal;R6 A6;R7 B5;deal;R3 ACE;R7 ACE;R1 B6;deal;R8 ACE;R3 B5;"
    "B3 B2;C2 B2;R7 B2;R1 B3;C5 B3;R1 B3;A4 B3;R2 A4;R4 C2;R5 C5;R5 C2;R5 C5;R5 B6;deal;"
    "R2 C8;R3 C3;R5 A1;A2 C3;B7 C2;R3 C2;R7 B7;C4 A2;R4 C4;R4 B7;A5 B7;C7 C4;R5 A5;R5 C5;"
    "R3 C5;R8 C7;R8 A1;R8 A5;deal;R1 A2;R4 C8;R5 A2;R4 A2;R6 A5;R8 C4;A8 C7;R4 C7;B4 C8;"
    "R7 B4;R5 B4;R6 B4;R6 A5;R7 C4;R7 A3;B8 B4;R2 B8;R2 B8;R8 B8;R3 B8;R8 A4;R4 A4;R2 A4;"
    "R4 A6;C6 A8;R1 A8;R3 A8;R8 A8;R6 C6;R6 B7;R6 C7;R6 C6;R3 C6;R7 C6"
)


def played(deal: int, line: str, moves: int | None = None, game: Game | None = None) -> Game:
    """Deal ``deal`` (or ``game``) after the first ``moves`` moves of ``line`` (all: None)."""
    game = game or Game.new(deal)
    play_line(game, ";".join(line.split(";")[:moves]))
    return game


def positions() -> dict[str, Game]:
    """Each reference image's name and the game it draws."""
    return {
        "deal1-start": Game.new(1),
        "deal1-stuck": played(1, STUCK_LINE),
        "deal28-move70": played(28, WIN_LINE, 70),
        "deal28-won": played(28, WIN_LINE),
        "three-up-start": Game.new(1, THREE_UP),
    }


def drawn(game: Game) -> bytes:
    return board_png(game, board_title(game.deal_number, game.move_count, game.variant))


def write_references() -> None:
    REFERENCE.mkdir(exist_ok=True)
    for name, game in positions().items():
        path = REFERENCE / f"{name}.png"
        path.write_bytes(drawn(game))
        print("wrote", path)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    write_references()
