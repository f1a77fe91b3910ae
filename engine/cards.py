"""Cards: ranks, suits, and their names in letters and in suit symbols.

A card is a small int, ``(rank - 1) * 4 + suit``, with ranks 1 (Ace) to 13
(King) and suits 0-3 (spades, hearts, diamonds, clubs). The two packs of the
game hold every card twice; the two copies are the same card.

Adding three ranks to a card of the same suit is adding ``RANK_STEP3`` (12):
that is the whole arithmetic of building in this game.
"""

from __future__ import annotations

from typing import Final

SUIT_LETTERS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_CHARS: Final = "A23456789TJQK"
RANK_NAMES: Final = (
    "Ace", "Two", "Three", "Four", "Five", "Six", "Seven",
    "Eight", "Nine", "Ten", "Jack", "Queen", "King",
)  # fmt: skip

ACE: Final = 1
KING: Final = 13
RANK_STEP3: Final = 12  # card + 12 is the same suit, three ranks higher
CARD_COUNT: Final = 52  # distinct cards in one pack

# Symbols players may paste, mapped to our suits: filled, outlined, and the
# emoji variation selector (U+FE0F, U+FE0E) which is simply ignored.
_SUIT_INPUT: Final = {
    "S": 0, "H": 1, "D": 2, "C": 3,
    "♠": 0, "♥": 1, "♦": 2, "♣": 3,
    "♤": 0, "♡": 1, "♢": 2, "♧": 3,
}  # fmt: skip
_RANK_INPUT: Final = {ch: i + 1 for i, ch in enumerate(RANK_CHARS)} | {"10": 10, "1": 1}
_VARIATION_SELECTORS: Final = ("\ufe0f", "\ufe0e")


def make_card(rank: int, suit: int) -> int:
    """The card of this rank (1-13) and suit (0-3)."""
    return (rank - 1) * 4 + suit


def rank_of(card: int) -> int:
    """The card's rank, 1 (Ace) to 13 (King)."""
    return (card >> 2) + 1


def suit_of(card: int) -> int:
    """The card's suit, 0-3 in the order spades, hearts, diamonds, clubs."""
    return card & 3


CARD_CODES: Final = tuple(RANK_CHARS[c >> 2] + SUIT_LETTERS[c & 3] for c in range(CARD_COUNT))
"""``card_code`` of every card, by card (a position string is a hundred of them)."""


def card_code(card: int) -> str:
    """The two-character code used in position strings and on the board: ``TD``."""
    return CARD_CODES[card]


def card_name(card: int, symbols: bool = True) -> str:
    """The name a player reads in messages: ``T♦`` (or ``TD`` in letter mode), spelt as
    the board spells it (a Ten is ``T`` in every output; ``10`` is read as input too)."""
    return board_code(card, symbols)


def board_code(card: int, symbols: bool = True) -> str:
    """Two display columns for the board grid: ``T♦`` (10 is written ``T``)."""
    return RANK_CHARS[card >> 2] + (SUIT_SYMBOLS if symbols else SUIT_LETTERS)[card & 3]


def parse_card(text: str) -> int | None:
    """Read a card name such as ``10h``, ``TH``, ``t♥`` or ``a♠️``; None if it is not one."""
    cleaned = text.strip().upper()
    for selector in _VARIATION_SELECTORS:
        cleaned = cleaned.replace(selector, "")
    if len(cleaned) < 2:
        return None
    rank = _RANK_INPUT.get(cleaned[:-1])
    suit = _SUIT_INPUT.get(cleaned[-1])
    if rank is None or suit is None or cleaned[:-1] == "1":
        return None
    return make_card(rank, suit)


def full_deck(decks: int) -> list[int]:
    """Every card of ``decks`` packs in the documented starting order.

    Pack by pack; within a pack by suit (spades, hearts, diamonds, clubs) and
    within a suit from Ace to King. This order is part of the deal algorithm
    and must never change.
    """
    one_pack = [make_card(rank, suit) for suit in range(4) for rank in range(1, 14)]
    return one_pack * decks
