"""An independent model of the Virginia Reel rules, written from RULES.md alone.

It reads the documented position string itself and never imports
``engine.game``: the legal moves it computes are a second opinion to compare
with ``Game.legal_moves()``. Moves are ``"SRC DST"`` strings with the board's
pile names (``"R3 A5"``, ``"B2 ACE"``) and ``"deal"``; an interchange is
written once, from the upper row (the row nearer the top) to the lower.
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = {"a": 1, "t": 10, "j": 11, "q": 12, "k": 13} | {str(n): n for n in range(2, 10)}
SUITS = "shdc"
ROW_NAMES = "ABC"
ROW_BASE = {0: 2, 1: 3, 2: 4}  # Twos row, Threes row, Fours row


@dataclass(frozen=True)
class Card:
    rank: int  # 1 (Ace) .. 13 (King)
    suit: str  # one of "shdc"


@dataclass
class Board:
    rows: list[list[list[Card]]]  # rows[row][pile] = cards bottom to top
    reserve: list[list[Card]]
    stock: list[Card]  # dealing order
    aces: int


def parse_cards(text: str) -> list[Card]:
    """Cards written as rank+suit codes one after another (``2s5s``); ``-`` is none."""
    text = text.lower()
    if text == "-":
        return []
    cards: list[Card] = []
    i = 0
    while i < len(text):
        if text.startswith("10", i):
            rank, i = 10, i + 2
        else:
            rank, i = RANKS[text[i]], i + 1
        suit = text[i]
        if suit not in SUITS:
            raise ValueError(f"bad suit in {text!r}")
        cards.append(Card(rank, suit))
        i += 1
    return cards


def parse_board(position: str) -> Board:
    """The board a Virginia Reel position string describes."""
    fields = position.split()
    assert len(fields) == 7 and fields[0].lower() == "vr", position
    rows = [[parse_cards(p) for p in fields[1 + r].split(",")] for r in range(3)]
    reserve = [parse_cards(p) for p in fields[4].split(",")]
    return Board(rows, reserve, parse_cards(fields[5]), int(fields[6]))


def is_based(row: int, pile: list[Card]) -> bool:
    return bool(pile) and pile[0].rank == ROW_BASE[row]


def is_misplaced(row: int, pile: list[Card]) -> bool:
    return len(pile) == 1 and pile[0].rank != ROW_BASE[row]


def available_cards(board: Board) -> list[tuple[str, Card]]:
    """(pile name, card) for every card that may move: reserve tops and misplaced cards."""
    found = [(f"R{j + 1}", pile[-1]) for j, pile in enumerate(board.reserve) if pile]
    for r, row in enumerate(board.rows):
        for c, pile in enumerate(row):
            if is_misplaced(r, pile):
                found.append((f"{ROW_NAMES[r]}{c + 1}", pile[0]))
    return found


def legal_moves(position: str) -> set[str]:
    """Every legal move of a Virginia Reel position, as ``"SRC DST"`` strings and ``"deal"``."""
    board = parse_board(position)
    moves: set[str] = set()
    for src, card in available_cards(board):
        # Ace: an available Ace goes to the Ace pile.
        if card.rank == 1:
            moves.add(f"{src} ACE")
        for r, row in enumerate(board.rows):
            for c, pile in enumerate(row):
                dst = f"{ROW_NAMES[r]}{c + 1}"
                # Build: onto a based pile, same suit, three ranks up, at most four cards.
                if is_based(r, pile) and len(pile) < 4:
                    top = pile[-1]
                    if card.suit == top.suit and card.rank == top.rank + 3:
                        moves.add(f"{src} {dst}")
                # Fill: a space takes only its own row's base rank.
                if not pile and card.rank == ROW_BASE[r]:
                    moves.add(f"{src} {dst}")
    # Interchange: two misplaced cards in different rows that both land home.
    misplaced = [
        (r, c, pile[0])
        for r, row in enumerate(board.rows)
        for c, pile in enumerate(row)
        if is_misplaced(r, pile)
    ]
    for r1, c1, card1 in misplaced:
        for r2, c2, card2 in misplaced:
            if r1 < r2 and card1.rank == ROW_BASE[r2] and card2.rank == ROW_BASE[r1]:
                moves.add(f"{ROW_NAMES[r1]}{c1 + 1} {ROW_NAMES[r2]}{c2 + 1}")
    # Deal: stock not empty and no space in any row.
    if board.stock and all(pile for row in board.rows for pile in row):
        moves.add("deal")
    return moves


def is_won(position: str) -> bool:
    """All Aces home and every row pile based and complete."""
    board = parse_board(position)
    return board.aces == 8 and all(
        is_based(r, pile) and len(pile) == 4 for r, row in enumerate(board.rows) for pile in row
    )


def cards_on_foundations(position: str) -> int:
    """The score: Aces on the Ace pile and every card of every based pile."""
    board = parse_board(position)
    return board.aces + sum(
        len(pile) for r, row in enumerate(board.rows) for pile in row if is_based(r, pile)
    )
