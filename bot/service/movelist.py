"""The stored move list: a game as the database keeps it, and back.

A game is stored as its deal and the line of its moves since the deal, in
the engine's notation (``engine.notation.format_line``: ``R3 A5;R6 ACE;deal``).
A move played automatically as part of the command before it (an Ace played
by the auto-Aces setting, or the second and later moves of ``auto``) carries
a ``+`` prefix, so that undo takes back a whole command. A game has at most
about 110 moves, so the list stays under 1 KB.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Final

from engine import Game, LineError, Move, Variant, format_line, play_line, variant_by_code
from engine.notation import format_line_move

log = logging.getLogger(__name__)

DEFAULT_VARIANT: Final = "vr"


class ReplayError(ValueError):
    """A stored game that can't be replayed; the message says what is wrong."""


def new_deal(deal_number: int, variant: Variant) -> Game:
    """The game at the deal. Tests replace this to start from a prepared position."""
    return Game.new(deal_number, variant)


def encode_moves(history: Sequence[Move], chained: Sequence[bool]) -> str:
    """The stored move list: the line of the game's moves, '+' marking automatic ones."""
    return format_line(history, chained)


def move_tokens(history: Sequence[Move], chained: Sequence[bool]) -> list[str]:
    """The items of the stored move list, one per move."""
    return [format_line_move(move, auto) for move, auto in zip(history, chained, strict=True)]


def replay(variant_code: str, deal_number: int, moves: str) -> tuple[Game, list[bool]]:
    """The game a stored row describes, and which of its moves were automatic.

    Raises ``ReplayError`` saying what is wrong if the row can't be replayed.
    """
    try:
        variant = variant_by_code(variant_code)
        game = new_deal(deal_number, variant)
    except (ValueError, TypeError) as exc:
        raise ReplayError(str(exc)) from None
    try:
        chained = play_line(game, moves)
    except LineError as exc:
        raise ReplayError(str(exc)) from None
    return game, chained


def stored_line(
    deal_number: int, text: str, what: str, variant: str = DEFAULT_VARIANT
) -> tuple[Move, ...] | None:
    """Moves stored as text (a winning line, or the moves of a proof of loss), as moves;
    None, logged, if they no longer replay from deal ``deal_number`` of ``variant``
    (``what`` names them in the log)."""
    try:
        game, _ = replay(variant, deal_number, text)
    except ReplayError as exc:
        log.warning("the stored line of %s does not replay: %s", what, exc)
        return None
    return game.history
