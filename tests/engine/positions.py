"""Readable position builders for the engine tests.

``board(rows={"A1": "2S5S", "B3": "9H"}, reserve=["7C", "AS"])`` writes the
position string with only the piles a test cares about: row piles not named
are spaces, reserve piles not named are empty, and every other card of the
two packs goes to the stock (or the Ace pile, for ``aces`` of the Aces).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from reference import parse_cards

from engine import Game
from engine.variant import variant_by_code

RANK_CODES = "A23456789TJQK"
SUIT_CODES = "SHDC"
ALL_CARDS = [r + s for _ in range(2) for s in SUIT_CODES for r in RANK_CODES]


def codes(text: str) -> list[str]:
    """The two-letter card codes of a pile text (``10`` written ``T``)."""
    return [
        ("T" if c.rank == 10 else RANK_CODES[c.rank - 1]) + c.suit.upper()
        for c in parse_cards(text)
    ]


def board(
    rows: Mapping[str, str] | None = None,
    reserve: Sequence[str] = (),
    aces: int = 0,
    stock: str | None = None,
    variant: str = "vr",
) -> str:
    """A position string; the cards not placed go to the stock in pack order.

    Any game of the family: its width, reserve and packs follow ``variant``'s code.
    """
    shape = variant_by_code(variant)
    all_cards = [r + s for _ in range(shape.decks) for s in SUIT_CODES for r in RANK_CODES]
    rows = {k.upper(): v for k, v in (rows or {}).items()}
    used: Counter[str] = Counter()
    row_fields = []
    for letter in "ABC":
        piles = []
        for col in range(1, shape.piles_per_row + 1):
            text = rows.pop(f"{letter}{col}", "-") or "-"
            used.update(codes(text))
            piles.append("".join(codes(text)) or "-")
        row_fields.append(",".join(piles))
    assert not rows, f"unknown row piles {sorted(rows)}"
    reserve_piles = [*reserve, *["-"] * (shape.reserve_piles - len(reserve))]
    reserve_field = ",".join("".join(codes(p or "-")) or "-" for p in reserve_piles)
    for p in reserve_piles:
        used.update(codes(p or "-"))
    left = Counter(all_cards) - used
    assert not (used - Counter(all_cards)), f"too many copies of {used - Counter(all_cards)}"
    ace_pile = Counter({f"A{s}": 0 for s in SUIT_CODES})
    for _ in range(aces):
        ace = next(a for a in sorted(left) if a[0] == "A" and left[a] > ace_pile[a])
        ace_pile[ace] += 1
    left -= ace_pile
    if stock is None:
        stock_cards = [c for c in dict.fromkeys(all_cards) for _ in range(left[c])]
        stock_field = "".join(stock_cards) or "-"
    else:
        stock_field = "".join(codes(stock)) or "-"
        assert Counter(codes(stock)) == left, "the stock must hold exactly the cards left"
    return " ".join([variant, *row_fields, reserve_field, stock_field, str(aces)])


# Every row pile filled, no space: rows of misplaced cards and based piles that
# use each card at most twice. Tests change the piles they care about.
FULL_ROWS: dict[str, str] = {
    "A1": "2S", "A2": "3S", "A3": "4S", "A4": "6S", "A5": "7S", "A6": "9S", "A7": "TS", "A8": "QS",
    "B1": "3H", "B2": "2H", "B3": "4H", "B4": "5H", "B5": "7H", "B6": "8H", "B7": "TH", "B8": "JH",
    "C1": "4D", "C2": "2D", "C3": "3D", "C4": "5D", "C5": "6D", "C6": "8D", "C7": "9D", "C8": "JD",
}  # fmt: skip


def full_rows(**changes: str) -> dict[str, str]:
    """FULL_ROWS with some piles changed: ``full_rows(A4="5S", B8="-")``."""
    return FULL_ROWS | {k.upper(): v for k, v in changes.items()}


def random_play(game: Game, rng: random.Random, care: float) -> Iterator[Game]:
    """Play random legal moves until won or stuck, yielding the game before each move.

    With probability ``care`` a move is chosen among those that are not the
    deal and open no unfillable space, which takes games deeper than blind
    random play; otherwise any legal move.
    """
    while True:
        yield game
        moves = game.legal_moves()
        if not moves:
            return
        careful = [m for m in moves if not m.is_deal and game.space_warning(m) is None]
        game.play(rng.choice(careful) if careful and rng.random() < care else rng.choice(moves))


# Every row pile based and complete: the rows of a won game.
WON_ROWS: dict[str, str] = {
    f"{letter}{col}": "".join(rank + "SHDC"[(col - 1) % 4] for rank in ranks)
    for letter, ranks in zip("ABC", ("258J", "369Q", "47TK"), strict=True)
    for col in range(1, 9)
}
WON_POSITION = board(WON_ROWS, aces=8, stock="-")
# Stock empty, no space, and the two 8♠ the spade piles of row A need lie
# under the J♠ that would follow them: no legal move is left.
STUCK_POSITION = board(WON_ROWS | {"A1": "2S5S", "A5": "2S5S"}, ["8SJS", "8SJS"], aces=8, stock="-")


def position_key(game: Game) -> tuple[object, ...]:
    """A key equal for positions that play the same (piles of a row permuted).

    The solver's search uses an equivalent integer key on its own model
    (``engine.solver.model.Model.key``); this one compares positions of games.
    """
    rows = tuple(tuple(sorted(game.row(r))) for r in range(3))
    return (rows, game.reserve, game.stock, game.aces)
