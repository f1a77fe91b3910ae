"""Notation: pile names, the one move parser for every front end, and position strings.

Pile names are the ones the board shows: ``A1``-``C8`` for the rows (A is the
Twos row, B the Threes, C the Fours), ``R1``-``R8`` for the reserve, ``ACE``
for the Ace pile. A move is ``FROM TO`` (``r3 a5``), a card or pile alone when
it has one destination (``5h``, ``r3``), or ``deal``. The grammar of both the
moves and the position string is in ``docs/notation.md``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from .cards import SUIT_LETTERS, card_code, card_name, make_card, parse_card
from .game import Game
from .moves import (
    ACE_PILE,
    DEAL,
    AmbiguousMoveError,
    InvalidMoveError,
    Move,
    Pile,
    PositionError,
)
from .variant import ROW_LETTERS, ROWS, variant_by_code

ACE_PILE_NAMES: Final = frozenset({"ace", "aces", "@", "ap"})
DEAL_WORDS: Final = frozenset({"deal", "dl"})
_PILE_RE: Final = re.compile(r"([abcr])(\d{1,2})")
_SEPARATORS: Final = re.compile(r"\s*(?:->|→|⇄|=>|\bto\b|\bon\b|,|\s)\s*")


@cache
def _pile_names(width: int, reserve_piles: int) -> dict[str, Pile]:
    """The piles of a board shape by their names as written on the board, lower case."""
    piles = [Pile("row", r, c) for r in range(ROWS) for c in range(width)]
    piles += [Pile("reserve", 0, j) for j in range(reserve_piles)]
    return {pile.name.lower(): pile for pile in piles}


def parse_pile(game: Game, token: str) -> Pile | None:
    """A pile name (``a5``, ``R3``, ``ace``) as a Pile of this game, or None."""
    token = token.strip().lower()
    known = _pile_names(game.width, game.variant.reserve_piles).get(token)
    if known is not None:
        return known  # the name as the board writes it; other spellings (a05) read below
    if token in ACE_PILE_NAMES:
        return ACE_PILE
    m = _PILE_RE.fullmatch(token)
    if not m:
        return None
    letter, number = m.group(1), int(m.group(2))
    if letter == "r":
        if 1 <= number <= game.variant.reserve_piles:
            return Pile("reserve", 0, number - 1)
        return None
    if 1 <= number <= game.width:
        return Pile("row", "abc".index(letter), number - 1)
    return None


def _source_piles_of_card(game: Game, card: int) -> list[Pile]:
    """Every pile where ``card`` lies on top (reserve) or is the row pile's top card."""
    found: list[Pile] = []
    for j, pile in enumerate(game.reserve):
        if pile and pile[-1] == card:
            found.append(Pile("reserve", 0, j))
    for r in range(ROWS):
        for c, pile in enumerate(game.row(r)):
            if pile and pile[-1] == card:
                found.append(Pile("row", r, c))
    return found


def _card_or_pile(game: Game, token: str) -> tuple[list[Pile], str]:
    """The piles a token may mean (several when a card lies in two places), and
    how to name it in a message."""
    pile = parse_pile(game, token)
    if pile is not None:
        return [pile], pile.name
    card = parse_card(token)
    if card is not None:
        return _source_piles_of_card(game, card), card_name(card)
    raise InvalidMoveError(
        f"I don't know {token!r}: name a pile "
        f"(A1-C{game.width}, R1-R{game.variant.reserve_piles}, ACE) or a card (5h, 10♦, TD)"
    )


def parse_move(game: Game, text: str) -> Move:
    """Read move text for this position, the one parser every front end uses.

    The result may still be illegal: ``game.play`` then raises
    ``IllegalMoveError`` with the rule. Text that names no move raises
    ``InvalidMoveError``; text that fits several legal moves raises
    ``AmbiguousMoveError`` listing them.
    """
    cleaned = text.strip().lower()
    if not cleaned:
        raise InvalidMoveError(
            "type a move: FROM TO (like 'r3 a5'), a card alone (like '5h'), or 'deal'"
        )
    if cleaned in DEAL_WORDS:
        return DEAL
    tokens = [t for t in _SEPARATORS.split(cleaned) if t]
    if len(tokens) == 1:
        return _parse_single(game, tokens[0])
    if len(tokens) != 2:
        raise InvalidMoveError(f"{text.strip()!r} is not a move: give FROM and TO, like 'r3 a5'")
    sources, src_label = _card_or_pile(game, tokens[0])
    dst_token = tokens[1]
    if dst_token in ("a", "b", "c"):
        row = "abc".index(dst_token)
        spaces = [p for p in game.spaces() if p.row == row]
        if not spaces:
            raise InvalidMoveError(
                f"row {ROW_LETTERS[row]} has no space: name the pile, like {ROW_LETTERS[row]}5"
            )
        dests = spaces[:1]
        dst_label = f"row {ROW_LETTERS[row]}"
    else:
        dests, dst_label = _card_or_pile(game, dst_token)
    if not sources:
        raise InvalidMoveError(f"{src_label} is not on top of any pile")
    if not dests:
        raise InvalidMoveError(f"{dst_label} is not on top of any pile")
    candidates = [Move(s, d) for s in sources for d in dests]
    if len(candidates) == 1:
        return candidates[0]
    legal = [m for m in candidates if game.is_legal(m)]
    if len(legal) == 1:
        return legal[0]
    if not legal:
        return candidates[0]  # play() explains why it is illegal
    raise AmbiguousMoveError(_ambiguity(game, legal))


def _parse_single(game: Game, token: str) -> Move:
    sources, label = _card_or_pile(game, token)
    if not sources:
        raise InvalidMoveError(f"{label} is not on top of any pile, so it can't move")
    legal = [m for m in game.legal_moves() if m.src in sources]
    if not legal:
        if len(sources) == 1 and sources[0].area == "row" and game.is_based(sources[0]):
            game.kind(Move(sources[0], ACE_PILE))  # raises: in its proper place
        raise InvalidMoveError(f"{label} has no legal move right now")
    # Fills of one row lead to equivalent places: the leftmost space stands for them.
    distinct: dict[tuple[Pile | None, object], Move] = {}
    for move in legal:
        dst = move.dst
        assert dst is not None
        key: object = ("space", dst.row) if dst.area == "row" and not game.pile(dst) else dst
        distinct.setdefault((move.src, key), move)
    if len(distinct) == 1:
        return next(iter(distinct.values()))
    raise AmbiguousMoveError(_ambiguity(game, list(distinct.values())))


def _ambiguity(game: Game, moves: list[Move]) -> str:
    options = "; ".join(f"'{m}' ({game.describe(m)})" for m in moves[:6])
    return f"that fits {len(moves)} moves: say which, e.g. {options}"


# ---------------------------------------------------------------------- position strings

_CARD_RE: Final = re.compile(r"(10|[a2-9tjqk])([shdc])")
_ACE_COUNT_RE: Final = re.compile(r"[0-9]{1,2}")


def format_position(game: Game) -> str:
    """The position string: ``vr A-row B-row C-row reserve stock aces``.

    Piles are comma-separated, each its cards bottom to top as two-letter codes
    (``2S5S``), ``-`` for an empty pile; the stock is its cards in dealing order
    (``-`` when empty); the last field is the number of Aces on the Ace pile.
    """

    def pile_text(pile: tuple[int, ...]) -> str:
        return "".join(card_code(c) for c in pile) or "-"

    fields = [game.variant.code]
    fields += [",".join(pile_text(p) for p in game.row(r)) for r in range(ROWS)]
    fields.append(",".join(pile_text(p) for p in game.reserve))
    fields.append(pile_text(game.stock))
    fields.append(str(game.aces))
    return " ".join(fields)


def _parse_cards(text: str, where: str) -> list[int]:
    if text == "-":
        return []
    if not text:
        raise PositionError(f"an empty pile in {where} is written '-', not left blank")
    cards: list[int] = []
    pos = 0
    while pos < len(text):
        m = _CARD_RE.match(text, pos)
        if not m:
            raise PositionError(f"bad card {text[pos : pos + 3]!r} in {where}")
        rank_text, suit_text = m.groups()
        rank = 10 if rank_text == "10" else "a23456789tjqk".index(rank_text) + 1
        cards.append(make_card(rank, SUIT_LETTERS.lower().index(suit_text)))
        pos = m.end()
    return cards


def parse_position(text: str) -> Game:
    """The Game a position string describes (its history starts empty)."""
    fields = text.strip().lower().split()
    if len(fields) != 7:
        raise PositionError(
            "a position has 7 fields (variant, rows A B C, reserve, stock, aces); "
            f"found {len(fields)}"
        )
    try:
        variant = variant_by_code(fields[0])
    except ValueError as exc:
        raise PositionError(str(exc)) from None
    rows: list[list[int]] = []
    for r in range(ROWS):
        piles = fields[1 + r].split(",")
        if len(piles) != variant.piles_per_row:
            raise PositionError(
                f"row {ROW_LETTERS[r]} has {len(piles)} piles; "
                f"{variant.name} has {variant.piles_per_row}"
            )
        rows += [_parse_cards(p, f"row {ROW_LETTERS[r]}") for p in piles]
    reserve_fields = fields[4].split(",")
    reserve = [_parse_cards(p, "the reserve") for p in reserve_fields]
    stock = _parse_cards(fields[5], "the stock")
    if not _ACE_COUNT_RE.fullmatch(fields[6]):
        raise PositionError(f"the Ace count must be a number, not {fields[6]!r}")
    return Game(rows, reserve, stock, int(fields[6]), variant)
