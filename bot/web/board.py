"""A ``GameView`` as the web board draws it: one JSON object with everything on the board.

The browser draws from this alone: every pile with its cards (bottom first, by their
codes in the notation: ``7C``, ``TD``), which row piles are based and which hold a
misplaced card, the spaces, the reserve's depths, the stock's deals left, the Ace pile,
the score, the move count, the clock, won and stuck, the space warning, the player's
settings, and the legal moves grouped by the pile they start from, so that the page
highlights where a held card may go without deciding any rule itself. ``position`` is
the engine's position string (``docs/notation.md``): the page puts it on the board's
root element as ``data-position``.
"""

from __future__ import annotations

from engine import VARIANTS, Game, Pile, Status, parse_pile, parse_position
from engine.cards import card_code
from engine.game import BUILD_SEQUENCES

from ..service import GameView, HintView, Settings, format_duration
from .wire import (
    Aces,
    Board,
    BoardSettings,
    Can,
    GameName,
    Hint,
    ReservePile,
    Row,
    RowPile,
    Stock,
    Target,
)

ROW_BASES = BUILD_SEQUENCES  # what each row builds, A to C (a Ten is T)


def games() -> list[GameName]:
    """The games of the family the service deals, for the page's new-game menu."""
    return [GameName(code=v.code, name=v.name) for v in VARIANTS.values()]


def board_json(view: GameView, settings: Settings) -> Board:
    """``view`` as the page draws it (see the module docstring)."""
    game = parse_position(view.position)
    playing = not view.finished and view.status is Status.PLAYING
    return {  # (a literal, so mypy checks its keys against Board's)
        "version": view.version,
        "position": view.position,
        "variant": view.variant,
        "game": VARIANTS[view.variant].name,
        "deal": str(view.deal_number),  # text: deal numbers go past JavaScript's 2**53
        "rows": [_row(game, row) for row in range(3)],
        "reserve": [_reserve(game, col) for col in range(game.variant.reserve_piles)],
        "stock": Stock(cards=game.stock_count, deals_left=view.deals_left),
        "aces": Aces(
            count=game.aces,
            total=game.variant.ace_total,
            cards=[card_code(card) for card in game.ace_pile_cards()],
        ),
        "score": view.score,
        "card_total": game.variant.card_total,
        "moves": view.move_count,
        "undos": view.undo_count,
        "clock": None if view.elapsed_s is None else format_duration(view.elapsed_s),
        "elapsed_s": view.elapsed_s,
        "status": view.status.value,
        "finished": view.finished,
        "playing": playing,
        "in_progress": view.in_progress,
        "message": view.message,
        "warning": view.warning,
        "can": Can(
            deal=view.can_deal,
            undo=view.can_undo,
            redo=view.can_redo,
            auto=view.can_auto,
            restart=playing and view.undoable > 0,
        ),
        "legal": _legal(game, view),
        "daily": None if view.daily_date is None else view.daily_date.isoformat(),
        "scored": view.scored,
        "par": view.par,
        "assisted": view.assisted,
        "share": view.share_text,
        "settings": BoardSettings(
            symbols=settings.symbols, auto_aces=settings.auto_aces, winnable=settings.winnable
        ),
    }


def _row(game: Game, row: int) -> Row:
    """Row ``row`` (0 for A): what it builds and its piles."""
    piles = []
    for col in range(game.width):
        pile = Pile("row", row, col)
        cards = game.pile(pile)
        piles.append(
            RowPile(
                pile=pile.name,
                cards=[card_code(card) for card in cards],
                based=game.is_based(pile),
                misplaced=game.is_misplaced(pile),
                space=not cards,
            )
        )
    return Row(row="ABC"[row], builds=ROW_BASES[row], piles=piles)


def _reserve(game: Game, col: int) -> ReservePile:
    pile = Pile("reserve", 0, col)
    cards = game.pile(pile)
    return ReservePile(pile=pile.name, cards=[card_code(card) for card in cards], depth=len(cards))


def _legal(game: Game, view: GameView) -> dict[str, list[Target]]:
    """The legal moves but the deal, by the pile they start from: for each, where it goes,
    the move in the notation, in words, and the warning it would bring."""
    legal: dict[str, list[Target]] = {}
    for choice in view.moves:
        source, _, target = choice.text.partition(" ")
        pile = parse_pile(game, source)
        cards = () if pile is None else game.pile(pile)
        legal.setdefault(source, []).append(
            Target(
                to=target,
                move=choice.text,
                card=card_code(cards[-1]) if cards else None,  # a misplaced card is alone
                label=choice.label,
                note=choice.note,
            )
        )
    return legal


def hint_json(hint: HintView) -> Hint:
    """A hint for the page: the move to show on the board (its two piles), and why; for a
    lost game, the move it could still be won from (``undo_to``, what ``undo to N`` takes
    back to, and ``back_to``, its name), if the game can go back there."""
    source, _, target = (hint.move or "").partition(" ")  # "deal": the stock is shown
    return {  # (a literal: "from" is no keyword argument)
        "move": hint.move,
        "from": source or None,
        "to": target or None,
        "label": hint.label,
        "source": hint.source,
        "message": hint.message,
        "undo_to": hint.winnable_at if hint.back_to is not None and hint.game.can_undo else None,
        "back_to": hint.back_to,
        "version": hint.game.version,
    }
