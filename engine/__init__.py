"""Virginia Reel: the rules engine, pure and synchronous.

>>> from engine import Game, parse_move
>>> game = Game.new(1)
>>> move = game.legal_moves()[0]
>>> kind = game.play(move)
>>> game.undo() == move
True
"""

from .cards import card_name, parse_card
from .deal import BAD_DEAL, MAX_DEAL, MIN_DEAL, DealNumberError, deal_layout, shuffled_deck
from .game import Game, SpaceWarning, Status
from .moves import (
    ACE_PILE,
    DEAL,
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    MoveKind,
    Pile,
    PositionError,
)
from .notation import (
    LineError,
    describe_move,
    format_line,
    format_position,
    line_length,
    parse_line,
    parse_move,
    parse_pile,
    parse_position,
    play_line,
)
from .render import MAX_WIDTH, display_width, render
from .variant import VARIANTS, VIRGINIA_REEL, Variant, variant_by_code

__all__ = [
    "ACE_PILE",
    "BAD_DEAL",
    "DEAL",
    "MAX_DEAL",
    "MAX_WIDTH",
    "MIN_DEAL",
    "VARIANTS",
    "VIRGINIA_REEL",
    "AmbiguousMoveError",
    "DealNumberError",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "LineError",
    "Move",
    "MoveKind",
    "Pile",
    "PositionError",
    "SpaceWarning",
    "Status",
    "Variant",
    "card_name",
    "deal_layout",
    "describe_move",
    "display_width",
    "format_line",
    "format_position",
    "line_length",
    "parse_card",
    "parse_line",
    "parse_move",
    "parse_pile",
    "parse_position",
    "play_line",
    "render",
    "shuffled_deck",
    "variant_by_code",
]
