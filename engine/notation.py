"""Notation: every text form of a move, of a line of moves and of a position.

Pile names are the ones the board shows: ``A1``-``C8`` for the rows (A is the
Twos row, B the Threes, C the Fours), ``R1``-``R8`` for the reserve, ``ACE``
for the Ace pile. A move is ``FROM TO`` (``r3 a5``), a card or pile alone when
it has one destination (``5h``, ``r3``), or ``deal``: ``parse_move`` reads what
a player types; ``str(move)`` (``moves.py``) is its canonical form, and
``describe_move`` says it in words. A line is moves joined by ``;``, a ``+``
marking a move played automatically with the one before it (``format_line``,
``parse_line``, ``play_line``): how games and solver lines are stored. The
position string (``format_position``, ``parse_position``) holds a whole board.
The grammar of each is in ``docs/notation.md``. This module sits above
``game.py``: the rules never import it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Final

from .cards import CARD_CODES, SUIT_LETTERS, card_name, make_card, parse_card
from .game import Game
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


ECHO_LIMIT: Final = 60  # characters of what was typed that a message repeats, at most


def echo(text: str) -> str:
    """What the player typed, as a message repeats it: cut to ``ECHO_LIMIT`` characters."""
    return text if len(text) <= ECHO_LIMIT else text[: ECHO_LIMIT - 1] + "…"


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
        f"I don't know {echo(token)!r}: name a pile "
        f"(A1-C{game.width}, R1-R{game.variant.reserve_piles}, ACE) or a card (5h, T♦, td)"
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
    # Blue Jacket: a card alone goes onto an empty reserve pile only if it has nowhere else
    # to go (a build, a fill, the Ace pile is what it means), and then onto the leftmost.
    elsewhere = [m for m in legal if m.dst is not None and m.dst.area != "reserve"]
    legal = elsewhere or legal
    # Fills of one row lead to equivalent places: the leftmost space stands for them.
    distinct: dict[tuple[Pile | None, object], Move] = {}
    for move in legal:
        dst = move.dst
        assert dst is not None
        key: object = ("space", dst.row) if dst.area == "row" and not game.pile(dst) else dst
        if dst.area == "reserve":
            key = "empty reserve pile"
        distinct.setdefault((move.src, key), move)
    if len(distinct) == 1:
        return next(iter(distinct.values()))
    raise AmbiguousMoveError(_ambiguity(game, list(distinct.values())))


def _ambiguity(game: Game, moves: list[Move]) -> str:
    options = "; ".join(f"'{m}' ({describe_move(game, m)})" for m in moves[:6])
    return f"that fits {len(moves)} moves: say which, e.g. {options}"


def describe_move(game: Game, move: Move, symbols: bool = True) -> str:
    """A legal move of ``game`` in words: ``R3 5♥ → A5 on 2♥``. An illegal one raises
    ``IllegalMoveError`` (or ``InvalidMoveError``) with the rule.

    An interchange is told from the upper row, as it is recorded, whichever
    end the move names first (so playing it and undoing it say the same).
    """
    kind = game.kind(move)
    if kind is MoveKind.DEAL:
        # Said of the deal about to be made: how many will follow it.
        after = game.deals_left - 1
        return "Deal (the last one)" if after == 0 else f"Deal ({after} more to come)"
    if kind is MoveKind.INTERCHANGE:
        move = game.canonical(move)
    src, dst = move.src, move.dst
    assert src is not None and dst is not None
    card = card_name(game.pile(src)[-1], symbols)  # the available card: a pile's top
    if kind is MoveKind.ACE:
        return f"{src.name} {card} → Ace pile"
    head = f"{src.name} {card} → {dst.name}"
    if kind is MoveKind.BUILD:
        return f"{head} on {card_name(game.pile(dst)[-1], symbols)}"
    if kind is MoveKind.INTERCHANGE:
        return f"{src.name} {card} ⇄ {dst.name} {card_name(game.pile(dst)[0], symbols)}"
    if kind is MoveKind.FILL:
        return f"{head} (space)"
    return head


# ---------------------------------------------------------------------- lines of moves

LINE_SEPARATOR: Final = ";"
"""What joins the moves of a line: ``R3 A5;R6 ACE;deal``."""
AUTO_MARK: Final = "+"
"""Marks a move of a line played automatically as part of the command before it."""


class LineError(ValueError):
    """A line of moves that does not read, or does not play, from the position given."""


def format_line_move(move: Move, auto: bool = False) -> str:
    """One move of a line: its notation, ``+`` first when it was played automatically."""
    return f"{AUTO_MARK}{move}" if auto else str(move)


def format_line(moves: Iterable[Move], auto: Iterable[bool] | None = None) -> str:
    """A line as stored: ``R3 A5;+R6 ACE;deal``. ``auto``, one flag a move, marks the
    moves played automatically with the command before them (none when omitted)."""
    if auto is None:
        return LINE_SEPARATOR.join(str(move) for move in moves)
    pairs = zip(moves, auto, strict=True)
    return LINE_SEPARATOR.join(format_line_move(move, flag) for move, flag in pairs)


def line_length(text: str) -> int:
    """The number of moves in a stored line (empty for none), without reading them."""
    return text.count(LINE_SEPARATOR) + 1 if text else 0


def parse_line(game: Game, text: str) -> list[tuple[Move, bool]]:
    """A stored line for the board shape of ``game``: each move, and whether it was
    played automatically. Strict: each move is ``PILE PILE`` or ``deal``, as
    ``format_line`` writes it; anything else raises ``LineError`` naming the move."""
    tokens = text.split(LINE_SEPARATOR) if text else []
    return [_line_move(game, number, token) for number, token in enumerate(tokens, 1)]


def _line_move(game: Game, number: int, token: str) -> tuple[Move, bool]:
    auto = token.startswith(AUTO_MARK)
    body = token[1:] if auto else token
    if body == "deal":
        return DEAL, auto
    parts = body.split(" ")
    piles = [parse_pile(game, part) for part in parts]
    if len(parts) != 2 or piles[0] is None or piles[1] is None:
        raise LineError(f"move {number} {token!r} is not a stored move")
    return Move(piles[0], piles[1]), auto


def play_line(game: Game, text: str) -> list[bool]:
    """Play a stored line (``parse_line``) on ``game``, move by move; return the moves'
    automatic flags. ``LineError`` names the first move that does not read or is
    illegal (the moves before it are played by then)."""
    flags: list[bool] = []
    for number, token in enumerate(text.split(LINE_SEPARATOR) if text else [], 1):
        move, auto = _line_move(game, number, token)
        try:
            game.play(move)
        except IllegalMoveError as exc:
            raise LineError(f"move {number} {token!r} is illegal: {exc}") from None
        flags.append(auto)
    return flags


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
        return "".join(map(CARD_CODES.__getitem__, pile)) or "-"

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
