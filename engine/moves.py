"""Piles and moves as small value objects, and the errors a move can raise.

A ``Pile`` names a place on the board the way the board shows it: row piles
``A1``-``C8`` (row A is the Twos row, B the Threes, C the Fours), reserve
piles ``R1``-``R8``, and the Ace pile ``ACE``. A ``Move`` is a source and a
destination pile, or the deal. What a move does (build, fill, interchange,
Ace) follows from the position it is played in, as with a chess move.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal

from .variant import ROW_LETTERS

Area = Literal["row", "reserve", "ace"]


@dataclass(frozen=True, slots=True, order=True)
class Pile:
    """A pile on the board: ``Pile("row", 1, 4)`` is B5, ``Pile("reserve", 0, 2)`` is R3."""

    area: Area
    row: int = 0
    col: int = 0

    @property
    def name(self) -> str:
        if self.area == "row":
            return f"{ROW_LETTERS[self.row]}{self.col + 1}"
        if self.area == "reserve":
            return f"R{self.col + 1}"
        return "ACE"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<Pile {self.name}>"


ACE_PILE: Final = Pile("ace")


class MoveKind(StrEnum):
    """What a move does, as the rule book names it."""

    BUILD = "build"
    FILL = "fill"
    INTERCHANGE = "interchange"
    ACE = "ace"
    DEAL = "deal"
    RESERVE = "reserve"  # Blue Jacket only: a card onto an empty reserve pile


@dataclass(frozen=True, slots=True)
class Move:
    """A card from ``src`` to ``dst``; both None for the deal."""

    src: Pile | None
    dst: Pile | None

    @property
    def is_deal(self) -> bool:
        return self.src is None

    def __str__(self) -> str:
        if self.src is None or self.dst is None:
            return "deal"
        return f"{self.src.name} {self.dst.name}"

    def __repr__(self) -> str:
        return f"<Move {self}>"


DEAL: Final = Move(None, None)


class IllegalMoveError(ValueError):
    """A move the rules forbid. The message says which rule, in a player's words."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


class InvalidMoveError(ValueError):
    """Move text that names no move (a typo, an unknown pile or card)."""


class AmbiguousMoveError(ValueError):
    """Move text that fits more than one legal move."""


class PositionError(ValueError):
    """A position string that does not describe a possible position."""
