"""An independent model of the rules of Virginia Reel and its family, written from RULES.md alone.

It reads the documented position string itself and never imports the engine
(``engine.game``, ``engine.variant``): the legal moves it computes, and the
position a move leads to, are a second opinion to compare with
``Game.legal_moves()`` and ``Game.play``. Moves are ``"SRC DST"`` strings with
the board's pile names (``"R3 A5"``, ``"B2 ACE"``) and ``"deal"``; an
interchange is written once, from the upper row (the row nearer the top) to
the lower. The games' settings are RULES.md's "Related games" table, written
again here (``GAMES``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RANKS = {"a": 1, "t": 10, "j": 11, "q": 12, "k": 13} | {str(n): n for n in range(2, 10)}
SUITS = "shdc"
ROW_NAMES = "ABC"
ROW_BASE = {0: 2, 1: 3, 2: 4}  # Twos row, Threes row, Fours row
RANK_CODES = "A23456789TJQK"


@dataclass(frozen=True)
class Rules:
    """One row of RULES.md's "Related games" table."""

    decks: int
    piles: int  # piles a row, and reserve piles
    preplaced: bool  # a Two, Three and Four start on pile 1 of their rows
    deal_with_spaces: bool  # "any time" rather than "only with no space in the rows"
    empty_reserve: Literal["deal", "stock", "any"]  # refilled only by a deal / at once from
    # the stock / takes any single available card at any time


GAMES = {
    "vr": Rules(decks=2, piles=8, preplaced=True, deal_with_spaces=False, empty_reserve="deal"),
    "rp": Rules(decks=2, piles=8, preplaced=False, deal_with_spaces=True, empty_reserve="stock"),
    "tu": Rules(decks=3, piles=12, preplaced=True, deal_with_spaces=False, empty_reserve="deal"),
    "bj": Rules(decks=2, piles=8, preplaced=True, deal_with_spaces=False, empty_reserve="any"),
    "bp": Rules(decks=3, piles=12, preplaced=False, deal_with_spaces=True, empty_reserve="stock"),
}


@dataclass(frozen=True)
class Card:
    rank: int  # 1 (Ace) .. 13 (King)
    suit: str  # one of "shdc"


@dataclass
class Board:
    game: str  # the code of the game: a key of GAMES
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
    """The board a position string of any game of the family describes."""
    fields = position.split()
    assert len(fields) == 7 and fields[0].lower() in GAMES, position
    game = fields[0].lower()
    rows = [[parse_cards(p) for p in fields[1 + r].split(",")] for r in range(3)]
    reserve = [parse_cards(p) for p in fields[4].split(",")]
    piles = GAMES[game].piles
    assert all(len(row) == piles for row in rows) and len(reserve) == piles, position
    return Board(game, rows, reserve, parse_cards(fields[5]), int(fields[6]))


def card_text(card: Card) -> str:
    return RANK_CODES[card.rank - 1] + card.suit.upper()


def format_board(board: Board) -> str:
    """The position string of a board, as RULES.md's notation writes it."""

    def pile(cards: list[Card]) -> str:
        return "".join(card_text(c) for c in cards) or "-"

    rows = [",".join(pile(p) for p in row) for row in board.rows]
    reserve = ",".join(pile(p) for p in board.reserve)
    return " ".join([board.game, *rows, reserve, pile(board.stock), str(board.aces)])


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
    """Every legal move of a position, as ``"SRC DST"`` strings and ``"deal"``."""
    board = parse_board(position)
    rules = GAMES[board.game]
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
    # Blue Jacket: an empty reserve pile takes any single available card, at any time.
    if rules.empty_reserve == "any":
        for src, _ in available_cards(board):
            for j, pile in enumerate(board.reserve):
                if not pile:
                    moves.add(f"{src} R{j + 1}")
    # Deal: stock not empty and (in most games) no space in any row.
    spaces = not all(pile for row in board.rows for pile in row)
    if board.stock and (rules.deal_with_spaces or not spaces):
        moves.add("deal")
    return moves


def play(position: str, move: str) -> str:
    """The position after a legal ``move`` (as ``legal_moves`` writes it)."""
    board = parse_board(position)
    if move == "deal":
        for pile in board.reserve:  # one card onto each reserve pile, R1 first
            if board.stock:
                pile.append(board.stock.pop(0))
        return format_board(board)
    (src_area, src_row, src_col), (dst_area, dst_row, dst_col) = map(where, move.split())
    src = board.rows[src_row][src_col] if src_area == "row" else board.reserve[src_col]
    if dst_area == "row" and is_misplaced(dst_row, board.rows[dst_row][dst_col]):
        # an interchange: the two misplaced cards change places
        dst = board.rows[dst_row][dst_col]
        src[0], dst[0] = dst[0], src[0]
        return format_board(board)
    card = src.pop()
    if dst_area == "ace":
        board.aces += 1
    elif dst_area == "row":
        board.rows[dst_row][dst_col].append(card)  # a build or a fill
    else:
        board.reserve[dst_col].append(card)  # Blue Jacket: onto an empty reserve pile
    # Royal Parade, Big Parade: a reserve pile emptied is refilled at once from the stock.
    refilled = GAMES[board.game].empty_reserve == "stock" and src_area == "reserve"
    if refilled and not src and board.stock:
        src.append(board.stock.pop(0))
    return format_board(board)


def where(name: str) -> tuple[str, int, int]:
    """A pile name as (area, row, column): ``A5`` is ("row", 0, 4), ``R3`` ("reserve", 0, 2)."""
    if name == "ACE":
        return ("ace", 0, 0)
    if name[0] == "R":
        return ("reserve", 0, int(name[1:]) - 1)
    return ("row", ROW_NAMES.index(name[0]), int(name[1:]) - 1)


def is_won(position: str) -> bool:
    """All Aces home and every row pile based and complete."""
    board = parse_board(position)
    return board.aces == 4 * GAMES[board.game].decks and all(
        is_based(r, pile) and len(pile) == 4 for r, row in enumerate(board.rows) for pile in row
    )


def cards_on_foundations(position: str) -> int:
    """The score: Aces on the Ace pile and every card of every based pile."""
    board = parse_board(position)
    return board.aces + sum(
        len(pile) for r, row in enumerate(board.rows) for pile in row if is_based(r, pile)
    )
