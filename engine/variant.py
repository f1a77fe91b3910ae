"""Rules as data: the settings that tell Virginia Reel from its relatives.

The engine reads these fields instead of hard-coding Virginia Reel, so the
related games of the Picture Gallery family become settings, not forks.
Virginia Reel is the default. docs/rules.md says how each game is played here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

ReserveRefill = Literal["deal", "stock", "any"]

ROWS: Final = 3  # the Twos, Threes and Fours rows; every game of the family has three
ROW_LETTERS: Final = "ABC"


@dataclass(frozen=True, slots=True)
class Variant:
    """One game of the family, described by its settings.

    - ``decks``: packs shuffled together (2 or 3).
    - ``piles_per_row`` / ``reserve_piles``: the layout's width.
    - ``bases_preplaced``: a Two, Three and Four start on pile 1 of their rows.
    - ``distinct_base_suits``: those three are of three different suits.
    - ``deal_needs_no_space``: the stock may be dealt only while no row has a space.
    - ``reserve_refill``: how an empty reserve pile gets a card again:
      ``"deal"`` only by the next deal; ``"stock"`` at once, one card from the
      stock; ``"any"`` it also takes any single available card at any time.
    """

    code: str
    name: str
    decks: int = 2
    piles_per_row: int = 8
    reserve_piles: int = 8
    bases_preplaced: bool = True
    distinct_base_suits: bool = True
    deal_needs_no_space: bool = True
    reserve_refill: ReserveRefill = "deal"

    @property
    def card_total(self) -> int:
        return 52 * self.decks

    @property
    def ace_total(self) -> int:
        return 4 * self.decks

    @property
    def row_pile_count(self) -> int:
        return ROWS * self.piles_per_row


VIRGINIA_REEL: Final = Variant(code="vr", name="Virginia Reel")
ROYAL_PARADE: Final = Variant(
    code="rp",
    name="Royal Parade",
    bases_preplaced=False,
    distinct_base_suits=False,
    deal_needs_no_space=False,
    reserve_refill="stock",
)
THREE_UP: Final = Variant(
    code="tu", name="Three Up", decks=3, piles_per_row=12, reserve_piles=12,
    distinct_base_suits=False,
)  # fmt: skip
BLUE_JACKET: Final = Variant(
    code="bj", name="Blue Jacket", distinct_base_suits=False, reserve_refill="any"
)
BIG_PARADE: Final = Variant(
    code="bp", name="Big Parade", decks=3, piles_per_row=12, reserve_piles=12,
    bases_preplaced=False, distinct_base_suits=False, deal_needs_no_space=False,
    reserve_refill="stock",
)  # fmt: skip

VARIANTS: Final = {
    v.code: v for v in (VIRGINIA_REEL, ROYAL_PARADE, THREE_UP, BLUE_JACKET, BIG_PARADE)
}


def variant_by_code(code: str) -> Variant:
    """The variant with this short code (``vr`` for Virginia Reel)."""
    try:
        return VARIANTS[code.lower()]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise ValueError(f"unknown variant {code!r}: known variants are {known}") from None
