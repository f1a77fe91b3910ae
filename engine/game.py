"""The game: the whole state of one Virginia Reel deal, its legal moves, play and undo.

``Game`` is to this project what ``chess.Board`` is to python-chess: generate
with ``legal_moves()``, check with ``is_legal()``, play with ``play()`` (an
illegal move raises ``IllegalMoveError`` naming the rule), take back with
``undo()``. Everything is pure and synchronous; nothing here does I/O.

Inside, a row pile is a list of cards bottom to top (flat index
``row * width + col``), a reserve pile likewise, and the stock is a list whose
*last* element is dealt first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from .cards import (
    ACE,
    RANK_NAMES,
    RANK_STEP3,
    card_name,
    rank_of,
    suit_of,
)
from .deal import check_deal_number, deal_layout
from .moves import (
    ACE_PILE,
    DEAL,
    IllegalMoveError,
    Move,
    MoveKind,
    Pile,
    PositionError,
)
from .variant import ROW_LETTERS, ROWS, VIRGINIA_REEL, Variant

ROW_TITLES = ("the Twos row", "the Threes row", "the Fours row")
BUILD_SEQUENCES = ("2-5-8-J", "3-6-9-Q", "4-7-T-K")  # a Ten is T, as on the board

# Undo records: (tag, src_area, src_index, dst_area, dst_index, refilled, card)
_ROW, _RES, _ACE = 0, 1, 2


class Status(StrEnum):
    PLAYING = "playing"
    WON = "won"
    STUCK = "stuck"


@dataclass(frozen=True, slots=True)
class SpaceWarning:
    """A move left a space that no available card can fill while the stock has cards."""

    row: int

    @property
    def message(self) -> str:
        base = RANK_NAMES[self.row + 1]
        return (
            f"Row {ROW_LETTERS[self.row]} has a space and no {base} is available to fill it: "
            "the stock can't be dealt until one is."
        )

    @property
    def short(self) -> str:
        """The warning in a few words, for a list of moves (at most 60 characters)."""
        base = RANK_NAMES[self.row + 1]
        return f"leaves a space in row {ROW_LETTERS[self.row]} that no {base} can fill yet"


@dataclass(frozen=True, slots=True)
class _Layout:
    """The piles of a board shape and every move between them, made once and shared.

    ``Pile`` and ``Move`` are immutable values, so every game of one shape
    uses the same objects. ``from_row[i]`` / ``from_res[j]`` list the moves
    from row pile ``i`` / reserve pile ``j`` to each destination: the row
    piles (flat index), then the reserve piles (offset ``len(row_piles)``),
    then the Ace pile (the last entry).
    """

    row_piles: tuple[Pile, ...]
    res_piles: tuple[Pile, ...]
    from_row: tuple[tuple[Move, ...], ...]
    from_res: tuple[tuple[Move, ...], ...]


@lru_cache(maxsize=16)
def _layout(width: int, row_count: int, reserve_count: int) -> _Layout:
    row_piles = tuple(Pile("row", i // width, i % width) for i in range(row_count))
    res_piles = tuple(Pile("reserve", 0, j) for j in range(reserve_count))
    targets = (*row_piles, *res_piles, ACE_PILE)
    return _Layout(
        row_piles=row_piles,
        res_piles=res_piles,
        from_row=tuple(tuple(Move(src, dst) for dst in targets) for src in row_piles),
        from_res=tuple(tuple(Move(src, dst) for dst in targets) for src in res_piles),
    )


class Game:
    """One game of a variant (Virginia Reel by default), from its deal or a position."""

    __slots__ = (
        "_aces",
        "_checked",
        "_history",
        "_layout",
        "_legal",
        "_res_piles",
        "_reserve",
        "_row_piles",
        "_rows",
        "_score",
        "_stock",
        "_width",
        "deal_number",
        "variant",
    )

    def __init__(
        self,
        rows: Iterable[Sequence[int]],
        reserve: Iterable[Sequence[int]],
        stock: Sequence[int],
        aces: int = 0,
        variant: Variant = VIRGINIA_REEL,
        deal_number: int | None = None,
    ) -> None:
        """A game from explicit piles; ``stock`` in dealing order (first dealt first).

        Raises ``PositionError`` if the cards do not make a possible position.
        """
        self._setup(rows, reserve, stock, aces, variant, deal_number)
        self._validate()

    def _setup(
        self,
        rows: Iterable[Sequence[int]],
        reserve: Iterable[Sequence[int]],
        stock: Sequence[int],
        aces: int,
        variant: Variant,
        deal_number: int | None,
    ) -> None:
        self.variant = variant
        self.deal_number = deal_number
        self._width = variant.piles_per_row
        self._rows: list[list[int]] = [list(p) for p in rows]
        self._reserve: list[list[int]] = [list(p) for p in reserve]
        self._stock: list[int] = list(reversed(stock))
        self._aces = aces
        self._history: list[tuple[Move, tuple[int, int, int, int, int, int, int]]] = []
        # Computed once per position, forgotten by ``play`` and ``undo``:
        self._legal: tuple[Move, ...] | None = None  # legal_moves()
        self._score: int | None = None  # score
        self._checked: tuple[Move, MoveKind] | None = None  # the last move found legal, its kind
        self._layout = _layout(self._width, len(self._rows), len(self._reserve))
        self._row_piles = self._layout.row_piles
        self._res_piles = self._layout.res_piles

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, deal_number: int, variant: Variant = VIRGINIA_REEL) -> Game:
        """Deal ``deal_number`` of ``variant``, ready to play."""
        check_deal_number(deal_number)
        layout = deal_layout(deal_number, variant)
        game = cls.__new__(cls)
        # No ``_validate``: a deal lays out every card of the packs once per pack, one card
        # a pile, so it is always a possible position (tests check deals of every variant).
        game._setup(layout.rows, layout.reserve, layout.stock, 0, variant, deal_number)
        return game

    def copy(self) -> Game:
        """An independent game in the same position, with the same history."""
        other = Game.__new__(Game)
        other.variant = self.variant
        other.deal_number = self.deal_number
        other._width = self._width
        other._rows = [list(p) for p in self._rows]
        other._reserve = [list(p) for p in self._reserve]
        other._stock = list(self._stock)
        other._aces = self._aces
        other._history = list(self._history)
        other._legal = self._legal
        other._score = self._score
        other._checked = self._checked
        other._layout = self._layout
        other._row_piles = self._row_piles
        other._res_piles = self._res_piles
        return other

    def _validate(self) -> None:
        v = self.variant
        if len(self._rows) != v.row_pile_count:
            raise PositionError(f"expected {v.row_pile_count} row piles, found {len(self._rows)}")
        if len(self._reserve) != v.reserve_piles:
            raise PositionError(
                f"expected {v.reserve_piles} reserve piles, found {len(self._reserve)}"
            )
        if not 0 <= self._aces <= v.ace_total:
            raise PositionError(f"the Ace pile holds 0 to {v.ace_total} Aces, not {self._aces}")
        counts = [0] * 52
        for pile in (*self._rows, *self._reserve, self._stock):
            for card in pile:
                if not 0 <= card < 52:
                    raise PositionError(f"{card!r} is not a card")
                counts[card] += 1
        aces_elsewhere = 0
        for card, n in enumerate(counts):
            if rank_of(card) == ACE:
                aces_elsewhere += n
                if n > v.decks:
                    raise PositionError(
                        f"{card_name(card, False)} appears {n} times; "
                        f"{v.decks} packs hold {v.decks}"
                    )
            elif n != v.decks:
                raise PositionError(
                    f"{card_name(card, False)} appears {n} times; "
                    f"every card must appear {v.decks} times"
                )
        if aces_elsewhere + self._aces != v.ace_total:
            raise PositionError(
                f"{aces_elsewhere} Aces on the board and {self._aces} on the Ace pile "
                f"make {aces_elsewhere + self._aces}, not {v.ace_total}"
            )
        for i, pile in enumerate(self._rows):
            if len(pile) <= 1:
                continue
            if len(pile) > 4:
                raise PositionError(
                    f"row pile {self._row_piles[i].name} holds more than four cards"
                )
            base = i // self._width + 2
            if rank_of(pile[0]) != base or any(
                pile[k] != pile[0] + k * RANK_STEP3 for k in range(1, len(pile))
            ):
                raise PositionError(
                    f"row pile {self._row_piles[i].name} holds more than one card but is not "
                    f"a {RANK_NAMES[base - 1]} built up in suit by threes"
                )

    # ------------------------------------------------------------------ reading

    @property
    def width(self) -> int:
        """Piles in each row (8 in Virginia Reel)."""
        return self._width

    @property
    def aces(self) -> int:
        """Aces on the Ace pile."""
        return self._aces

    @property
    def stock(self) -> tuple[int, ...]:
        """The stock in dealing order: ``stock[0]`` is dealt first."""
        return tuple(reversed(self._stock))

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    @property
    def deals_left(self) -> int:
        r = self.variant.reserve_piles
        return (len(self._stock) + r - 1) // r

    def row(self, row: int) -> tuple[tuple[int, ...], ...]:
        """The piles of one row (0 = A, the Twos row), each bottom to top."""
        w = self._width
        return tuple(tuple(p) for p in self._rows[row * w : (row + 1) * w])

    @property
    def reserve(self) -> tuple[tuple[int, ...], ...]:
        """The reserve piles, each bottom to top (the last card is available)."""
        return tuple(tuple(p) for p in self._reserve)

    def pile(self, pile: Pile) -> tuple[int, ...]:
        """The cards of one pile, bottom to top (the Ace pile as its Aces)."""
        if pile.area == "row":
            return tuple(self._rows[self._row_index(pile)])
        if pile.area == "reserve":
            return tuple(self._reserve[self._res_index(pile)])
        return self.ace_pile_cards()

    def ace_pile_cards(self) -> tuple[int, ...]:
        """The Aces on the Ace pile. Only their number is kept: their suits are
        exactly the Aces missing from the rest of the board."""
        left = [self.variant.decks] * 4
        for pile in (*self._rows, *self._reserve, self._stock):
            for card in pile:
                if card < 4:
                    left[card] -= 1
        return tuple(card for card in range(4) for _ in range(left[card]))

    def is_based(self, pile: Pile) -> bool:
        """True if a row pile's bottom card is its row's base: a foundation."""
        if pile.area != "row":
            return False
        cards = self._rows[self._row_index(pile)]
        return bool(cards) and rank_of(cards[0]) == pile.row + 2

    def is_misplaced(self, pile: Pile) -> bool:
        """True if a row pile holds one card that is not its row's base."""
        if pile.area != "row":
            return False
        cards = self._rows[self._row_index(pile)]
        return len(cards) == 1 and rank_of(cards[0]) != pile.row + 2

    @property
    def score(self) -> int:
        """Cards on foundations: the Ace pile and every based pile (0 to 104)."""
        if self._score is None:
            w = self._width
            total = self._aces
            for i, pile in enumerate(self._rows):
                # a based pile: rank_of(pile[0]) == row + 2, that is pile[0] >> 2 == row + 1
                if pile and pile[0] >> 2 == i // w + 1:
                    total += len(pile)
            self._score = total
        return self._score

    @property
    def move_count(self) -> int:
        return len(self._history)

    @property
    def history(self) -> tuple[Move, ...]:
        """Moves played since the deal (or since the position was set up)."""
        return tuple(m for m, _ in self._history)

    def spaces(self) -> list[Pile]:
        """Empty row piles."""
        return [self._row_piles[i] for i, p in enumerate(self._rows) if not p]

    def is_won(self) -> bool:
        if self._aces != self.variant.ace_total:
            return False
        return all(
            len(p) == 4 and rank_of(p[0]) == i // self._width + 2 for i, p in enumerate(self._rows)
        )

    @property
    def status(self) -> Status:
        if self.is_won():
            return Status.WON
        if self._legal is None and self._deal_is_legal():
            return Status.PLAYING  # the deal is a legal move: no need to list the others
        if not self.legal_moves():
            return Status.STUCK
        return Status.PLAYING

    def _deal_is_legal(self) -> bool:
        """Whether the deal is legal here (the same test as ``_check_deal``, without errors)."""
        return bool(self._stock) and not (self.variant.deal_needs_no_space and not all(self._rows))

    # ------------------------------------------------------------------ generation

    def legal_moves(self) -> list[Move]:
        """Every legal move in this position, each once.

        Order: Aces, builds, interchanges, fills, reserve moves, then the deal.
        An interchange is listed once, from the upper row to the lower.
        The list is computed once per position (``play`` and ``undo`` forget it).
        """
        if self._legal is None:
            self._legal = tuple(self._generate())
        return list(self._legal)

    def _generate(self) -> list[Move]:
        w = self._width
        rows = self._rows
        layout = self._layout
        from_row = layout.from_row
        n_rows = len(rows)
        ace = n_rows + len(self._reserve)  # index of the Ace pile in a ``_Layout`` move list
        need: dict[int, list[int]] = {}
        spaces: tuple[list[int], list[int], list[int]] = ([], [], [])
        misplaced: list[int] = []
        # swappable[row * ROWS + wants]: misplaced Twos, Threes and Fours in ``row`` whose
        # own row is ``wants`` (the candidates for an interchange)
        swappable: list[list[int]] = [[] for _ in range(ROWS * ROWS)]
        for i, pile in enumerate(rows):
            n = len(pile)
            if n == 0:
                spaces[i // w].append(i)
            elif n == 1 and (pile[0] >> 2) != i // w + 1:
                misplaced.append(i)
                wants = (pile[0] >> 2) - 1  # the row this card belongs to
                if 0 <= wants < ROWS:
                    swappable[i // w * ROWS + wants].append(i)
            elif n < 4:
                need.setdefault(pile[-1] + RANK_STEP3, []).append(i)

        aces: list[Move] = []
        builds: list[Move] = []
        fills: list[Move] = []
        # Each source: its moves to every destination (``_Layout``) and its available card.
        sources: list[tuple[tuple[Move, ...], int]] = [
            (layout.from_res[j], p[-1]) for j, p in enumerate(self._reserve) if p
        ]
        sources += [(from_row[i], rows[i][0]) for i in misplaced]
        for to, card in sources:
            r = card >> 2  # rank - 1
            if r == 0:
                aces.append(to[ace])
                continue
            targets = need.get(card)
            if targets:
                builds += [to[i] for i in targets]
            if 1 <= r <= 3 and spaces[r - 1]:
                fills += [to[i] for i in spaces[r - 1]]

        moves = aces + builds
        if len(misplaced) > 1:
            moves += self._interchanges(misplaced, swappable)
        moves += fills
        if self.variant.reserve_refill == "any":
            # Blue Jacket: any available card onto an empty reserve pile, a misplaced card
            # or the top card of another reserve pile
            empty = [n_rows + j for j, p in enumerate(self._reserve) if not p]
            if empty:
                for to, _ in sources:
                    moves += [to[j] for j in empty]
        if self._stock and not (self.variant.deal_needs_no_space and any(spaces)):
            moves.append(DEAL)
        return moves

    def _interchanges(self, misplaced: list[int], swappable: list[list[int]]) -> list[Move]:
        """Interchanges, each once: from the upper row (a) to the lower (b), by index."""
        w = self._width
        rows = self._rows
        moves: list[Move] = []
        for a in misplaced:
            ra = a // w
            wants = (rows[a][0] >> 2) - 1
            if ra < wants < ROWS:
                row_a = self._layout.from_row[a]
                moves += [row_a[b] for b in swappable[wants * ROWS + ra]]
        return moves

    # ------------------------------------------------------------------ checking

    def is_legal(self, move: Move) -> bool:
        try:
            self._check(move)
        except IllegalMoveError:
            return False
        return True

    def kind(self, move: Move) -> MoveKind:
        """What ``move`` does in this position; raises ``IllegalMoveError`` if illegal."""
        return self._check(move)

    def _check(self, move: Move) -> MoveKind:
        """The kind of a legal move, or an IllegalMoveError whose message names the rule."""
        checked = self._checked
        if checked is not None and checked[0] is move:
            return checked[1]  # the same move object, found legal in this position just now
        kind = self._check_rules(move)
        self._checked = (move, kind)
        return kind

    def _check_rules(self, move: Move) -> MoveKind:
        src, dst = move.src, move.dst
        if src is None or dst is None:
            if src is not dst:
                raise IllegalMoveError("a move needs both a source and a destination", "malformed")
            return self._check_deal()
        self._check_pile_exists(src)
        self._check_pile_exists(dst)
        if src == dst:
            raise IllegalMoveError(f"{src.name} can't move onto itself", "same-pile")
        card = self._available_card(src)
        if dst.area == "ace":
            if rank_of(card) != ACE:
                raise IllegalMoveError(
                    f"only Aces go to the Ace pile, and {card_name(card)} is not an Ace",
                    "ace-pile-aces-only",
                )
            return MoveKind.ACE
        if dst.area == "reserve":
            return self._check_to_reserve(src, dst)
        target = self._rows[self._row_index(dst)]
        if not target:
            return self._check_fill(card, dst.row)
        if len(target) == 1 and rank_of(target[0]) != dst.row + 2:
            return self._check_onto_misplaced(src, dst, card, target[0])
        return self._check_build(dst, card, target)

    def _check_to_reserve(self, src: Pile, dst: Pile) -> MoveKind:
        if self.variant.reserve_refill == "any":  # ``src`` holds an available card
            if self._reserve[self._res_index(dst)]:
                raise IllegalMoveError(
                    f"{dst.name} is not empty: only an empty reserve pile takes a card",
                    "reserve-occupied",
                )
            return MoveKind.RESERVE
        source = "the deal" if self.variant.reserve_refill == "deal" else "the stock"
        raise IllegalMoveError(
            f"nothing is played onto the reserve: it only receives cards from {source}",
            "reserve-closed",
        )

    def _check_fill(self, card: int, row: int) -> MoveKind:
        if rank_of(card) != row + 2:
            raise IllegalMoveError(
                f"{card_name(card)} can't fill a space in row {ROW_LETTERS[row]} "
                f"({ROW_TITLES[row]}): only a {RANK_NAMES[row + 1]} can",
                "fill-base-only",
            )
        return MoveKind.FILL

    def _check_onto_misplaced(self, src: Pile, dst: Pile, card: int, bottom: int) -> MoveKind:
        """The destination holds a misplaced card: an interchange or nothing."""
        row = dst.row
        if src.area == "row" and 2 <= rank_of(card) <= 4 and 2 <= rank_of(bottom) <= 4:
            if src.row == row:
                raise IllegalMoveError(
                    f"{src.name} and {dst.name} are in the same row: an interchange swaps "
                    "misplaced cards between two different rows",
                    "interchange-across-rows",
                )
            if rank_of(card) == row + 2 and rank_of(bottom) == src.row + 2:
                return MoveKind.INTERCHANGE
            raise IllegalMoveError(
                f"{card_name(card)} and {card_name(bottom)} can't change places: "
                "an interchange must put both cards in their proper rows",
                "interchange-both-home",
            )
        raise IllegalMoveError(
            f"{card_name(card)} can't go on {card_name(bottom)}: "
            "nothing is built on a misplaced card",
            "no-build-on-misplaced",
        )

    def _check_build(self, dst: Pile, card: int, target: list[int]) -> MoveKind:
        top = target[-1]
        if len(target) == 4:
            raise IllegalMoveError(
                f"{dst.name} is complete with {card_name(top)} on top: nothing more goes on it",
                "pile-complete",
            )
        if suit_of(card) != suit_of(top):
            raise IllegalMoveError(
                f"{card_name(card)} can't go on {card_name(top)}: builds follow suit", "follow-suit"
            )
        if card != top + RANK_STEP3:
            raise IllegalMoveError(
                f"{card_name(card)} can't go on {card_name(top)}: builds go up by three "
                f"({BUILD_SEQUENCES[dst.row]}), so only a {RANK_NAMES[rank_of(top) + 2]} "
                "goes there",
                "up-by-three",
            )
        return MoveKind.BUILD

    def _check_deal(self) -> MoveKind:
        if not self._stock:
            raise IllegalMoveError("can't deal: the stock is empty", "stock-empty")
        if self.variant.deal_needs_no_space:
            spaces = [0] * ROWS
            for i, pile in enumerate(self._rows):
                if not pile:
                    spaces[i // self._width] += 1
            if any(spaces):
                raise IllegalMoveError(_spaces_block_the_deal(spaces), "deal-needs-no-space")
        return MoveKind.DEAL

    def _check_pile_exists(self, pile: Pile) -> None:
        ok = (
            (pile.area == "row" and 0 <= pile.row < ROWS and 0 <= pile.col < self._width)
            or (pile.area == "reserve" and 0 <= pile.col < len(self._reserve))
            or pile.area == "ace"
        )
        if not ok:
            raise IllegalMoveError(f"there is no pile {pile.name} in this game", "no-such-pile")

    def _available_card(self, src: Pile) -> int:
        if src.area == "ace":
            raise IllegalMoveError("nothing leaves the Ace pile", "ace-pile-final")
        if src.area == "reserve":
            pile = self._reserve[self._res_index(src)]
            if not pile:
                raise IllegalMoveError(
                    f"{src.name} is empty: there is no card to move", "empty-source"
                )
            return pile[-1]
        pile = self._rows[self._row_index(src)]
        if not pile:
            raise IllegalMoveError(
                f"{src.name} is a space: there is no card to move", "empty-source"
            )
        if rank_of(pile[0]) == src.row + 2:
            raise IllegalMoveError(
                f"{card_name(pile[-1])} is in its proper place and stays there", "based-cards-stay"
            )
        return pile[0]

    def _row_index(self, pile: Pile) -> int:
        return pile.row * self._width + pile.col

    def _res_index(self, pile: Pile) -> int:
        return pile.col

    # ------------------------------------------------------------------ play and undo

    def canonical(self, move: Move) -> Move:
        """The move as ``legal_moves()`` lists it (an interchange from the upper row)."""
        if (
            move.src is not None
            and move.dst is not None
            and move.src.area == "row"
            and move.dst.area == "row"
            and move.src.row > move.dst.row
            and self.is_legal(move)
            and self._check(move) is MoveKind.INTERCHANGE
        ):
            return Move(move.dst, move.src)
        return move

    def play(self, move: Move) -> MoveKind:
        """Play ``move``; raises ``IllegalMoveError`` (and changes nothing) if it is illegal."""
        kind = self._check(move)
        if kind is MoveKind.INTERCHANGE:
            move = self.canonical(move)
        self._legal = self._score = self._checked = None
        refilled = 0
        if kind is MoveKind.DEAL:
            n = min(len(self._stock), len(self._reserve))
            for j in range(n):
                self._reserve[j].append(self._stock.pop())
            self._history.append((move, (0, 0, 0, 0, n, 0, -1)))
            return kind
        assert move.src is not None and move.dst is not None
        src, dst = move.src, move.dst
        if kind is MoveKind.INTERCHANGE:
            a, b = self._row_index(src), self._row_index(dst)
            self._rows[a], self._rows[b] = self._rows[b], self._rows[a]
            self._history.append((move, (1, a, b, 0, 0, 0, -1)))
            return kind
        if src.area == "reserve":
            s_area, s_idx = _RES, self._res_index(src)
            card = self._reserve[s_idx].pop()
        else:
            s_area, s_idx = _ROW, self._row_index(src)
            card = self._rows[s_idx].pop()
        if dst.area == "ace":
            d_area, d_idx = _ACE, 0
            self._aces += 1
        elif dst.area == "reserve":
            d_area, d_idx = _RES, self._res_index(dst)
            self._reserve[d_idx].append(card)
        else:
            d_area, d_idx = _ROW, self._row_index(dst)
            self._rows[d_idx].append(card)
        if (
            s_area == _RES
            and self.variant.reserve_refill == "stock"
            and not self._reserve[s_idx]
            and self._stock
        ):
            self._reserve[s_idx].append(self._stock.pop())
            refilled = 1
        self._history.append((move, (2, s_area, s_idx, d_area, d_idx, refilled, card)))
        return kind

    def undo(self) -> Move:
        """Take back the last move and return it; IndexError at the deal."""
        if not self._history:
            raise IndexError("nothing to undo: this is the start of the game")
        self._legal = self._score = self._checked = None
        move, (tag, a, b, c, d, refilled, card) = self._history.pop()
        if tag == 0:
            for j in range(d - 1, -1, -1):
                self._stock.append(self._reserve[j].pop())
        elif tag == 1:
            self._rows[a], self._rows[b] = self._rows[b], self._rows[a]
        else:
            s_area, s_idx, d_area, d_idx = a, b, c, d
            if refilled:
                self._stock.append(self._reserve[s_idx].pop())
            if d_area == _ACE:
                self._aces -= 1
            elif d_area == _RES:
                self._reserve[d_idx].pop()
            else:
                self._rows[d_idx].pop()
            (self._reserve if s_area == _RES else self._rows)[s_idx].append(card)
        return move

    # ------------------------------------------------------------------ helpers for front ends

    def space_warning(self, move: Move) -> SpaceWarning | None:
        """The warning for ``move`` if it opens a space no available card can fill.

        Only while the stock still has cards (once it is empty spaces don't
        matter). ``move`` must be legal.
        """
        if (
            move.src is None
            or move.src.area != "row"
            or not self._stock
            or not self.variant.deal_needs_no_space
        ):
            return None
        kind = self._check(move)
        if kind is MoveKind.INTERCHANGE:
            return None
        # The move empties its source pile in row ``row``. The space can be filled if a card
        # of the row's base rank is available after it: on top of a reserve pile, or alone
        # (misplaced) in another row. Only the source and the destination change, and
        # neither counts either way (the source is in ``row``; the moving card is not of
        # the base rank, being misplaced there, and a build or a fill leaves its
        # destination based, never misplaced), so the current position answers, with no
        # play and undo.
        row = move.src.row
        base = row + 1  # card >> 2 of the row's base
        w = self._width
        fillable = any(p and p[-1] >> 2 == base for p in self._reserve) or any(
            len(p) == 1 and p[0] >> 2 == base and i // w != row for i, p in enumerate(self._rows)
        )
        return None if fillable else SpaceWarning(row)

    def safe_moves(self) -> list[Move]:
        """Moves that are never a mistake: an Ace from the reserve to the Ace pile.

        Except, where an emptied reserve pile is refilled at once from the stock (Royal
        Parade, Big Parade), an Ace alone on its pile while the stock has cards: playing
        it draws the next stock card onto that pile, and which pile the player empties
        first decides where each stock card lands, so its moment is the player's choice.
        """
        refill = bool(self._stock) and self.variant.reserve_refill == "stock"
        return [
            Move(self._res_piles[j], ACE_PILE)
            for j, p in enumerate(self._reserve)
            if p and rank_of(p[-1]) == ACE and not (refill and len(p) == 1)
        ]

    def play_safe_moves(self) -> list[Move]:
        """Play safe moves until none is left; return them in order."""
        played: list[Move] = []
        while True:
            moves = self.safe_moves()
            if not moves:
                return played
            for move in moves:
                self.play(move)
                played.append(move)

    def __repr__(self) -> str:
        deal = "a position" if self.deal_number is None else f"deal {self.deal_number}"
        return f"<Game {self.variant.code} {deal}, move {self.move_count}, {self.status}>"


def _spaces_block_the_deal(spaces: list[int]) -> str:
    """Why the deal is refused: every row with a space, and what fills it."""
    rows = [r for r, n in enumerate(spaces) if n]
    if len(rows) == 1:
        [row] = rows
        n, base = spaces[row], RANK_NAMES[row + 1]
        what = "a space" if n == 1 else f"{n} spaces"
        fill = f"fill it with a {base}" if n == 1 else f"fill them with {base}s"
        return f"can't deal: {ROW_TITLES[row]} (row {ROW_LETTERS[row]}) has {what}; {fill} first"
    named = [f"{ROW_TITLES[r]} (row {ROW_LETTERS[r]})" for r in rows]
    bases = [f"{RANK_NAMES[r + 1]}s" if spaces[r] > 1 else f"a {RANK_NAMES[r + 1]}" for r in rows]
    return (
        f"can't deal: {', '.join(named[:-1])} and {named[-1]} have spaces; "
        f"fill them with {', '.join(bases[:-1])} and {bases[-1]} first"
    )


__all__ = ["BUILD_SEQUENCES", "ROW_TITLES", "Game", "SpaceWarning", "Status"]
