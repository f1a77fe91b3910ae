"""Deals: a deal number names one shuffle, the same on every machine forever.

The algorithm, pinned by golden tests (never change it; add a new one beside it):

1. The generator is SplitMix64 (Steele, Lea and Flood, 2014) seeded with the
   deal number: each step adds 0x9E3779B97F4A7C15 to a 64-bit state and
   returns ``z ^ (z >> 31)`` where ``z`` is the state mixed by
   ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) * 0x94D049BB133111EB``
   (all arithmetic modulo 2**64).
2. The cards start in the order of ``cards.full_deck``: pack by pack, suits
   spades, hearts, diamonds, clubs, Ace to King.
3. Fisher-Yates (Durstenfeld): for ``i`` from ``n - 1`` down to 1, draw ``j``
   uniformly in ``0..i`` and swap cards ``i`` and ``j``. ``j`` is drawn by
   rejection: take the next 64-bit output ``x``; if
   ``x >= 2**64 - (2**64 mod (i + 1))`` draw again; else ``j = x mod (i + 1)``.
4. The shuffled list is read from index 0 on. With bases pre-placed, the first
   Two is taken out, then the first Three of another suit, then the first Four
   of a third suit (with ``distinct_base_suits`` off: the first Three and the
   first Four). They go to pile 1 of the Twos, Threes and Fours rows.
5. The remaining cards, in order, go face up to the other row piles (row A
   piles 2-8, then row B, then row C; every pile when bases are not
   pre-placed), then one to each reserve pile 1-8, and the rest form the
   stock, the first of them dealt first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import full_deck, rank_of, suit_of
from .variant import ROWS, VIRGINIA_REEL, Variant

MASK64: Final = (1 << 64) - 1
MIN_DEAL: Final = 1
MAX_DEAL: Final = (1 << 63) - 1  # fits a signed 64-bit SQLite INTEGER
BAD_DEAL: Final = f"A deal number is a whole number from {MIN_DEAL} to {MAX_DEAL}, like 42"
"""What a front end says of a deal number it can't read (each ends the sentence its way)."""


class DealNumberError(ValueError):
    """A deal number outside 1 to 2**63 - 1."""


class SplitMix64:
    """The SplitMix64 generator: 64-bit outputs from a 64-bit seed."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``0..bound - 1``, by rejection (no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            x = self.next()
            if x < limit:
                return x % bound


def check_deal_number(deal_number: int) -> int:
    """The deal number itself if it names a deal, else a DealNumberError."""
    if isinstance(deal_number, bool) or not isinstance(deal_number, int):
        raise DealNumberError(f"a deal number is a whole number, not {deal_number!r}")
    if not MIN_DEAL <= deal_number <= MAX_DEAL:
        raise DealNumberError(
            f"deal {deal_number} does not exist: deal numbers run from {MIN_DEAL} to {MAX_DEAL}"
        )
    return deal_number


def shuffled_deck(deal_number: int, decks: int = 2) -> list[int]:
    """The cards of ``decks`` packs, shuffled as deal ``deal_number`` (steps 1-3)."""
    check_deal_number(deal_number)
    cards = full_deck(decks)
    rng = SplitMix64(deal_number)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@dataclass(frozen=True, slots=True)
class Layout:
    """The cards as dealt: row piles (rows A, B, C in order), reserve, stock."""

    rows: tuple[tuple[int, ...], ...]
    reserve: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]  # in dealing order: stock[0] is dealt first


def deal_layout(deal_number: int, variant: Variant = VIRGINIA_REEL) -> Layout:
    """Lay out deal ``deal_number`` of ``variant`` (steps 4-5)."""
    cards = shuffled_deck(deal_number, variant.decks)
    width = variant.piles_per_row
    rows: list[list[int]] = [[] for _ in range(ROWS * width)]
    if variant.bases_preplaced:
        used_suits: list[int] = []
        for row in range(ROWS):
            base = row + 2
            pos = next(
                i
                for i, card in enumerate(cards)
                if rank_of(card) == base
                and not (variant.distinct_base_suits and suit_of(card) in used_suits)
            )
            card = cards.pop(pos)
            used_suits.append(suit_of(card))
            rows[row * width].append(card)
    it = iter(cards)
    for pile in rows:
        if not pile:
            pile.append(next(it))
    reserve = tuple((next(it),) for _ in range(variant.reserve_piles))
    stock = tuple(it)
    return Layout(rows=tuple(tuple(p) for p in rows), reserve=reserve, stock=stock)
